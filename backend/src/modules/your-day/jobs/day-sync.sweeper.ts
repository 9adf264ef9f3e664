import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { PeriodicSweep } from '../../../core/queue/periodic-sweep.js';
import { QueueDueDayViewsCommand } from '../public/commands.js';

/** Worker side: every DAY_SYNC_SWEEP_MS, queues a fetch of each view that is due and deletes expired snapshots. */
@Injectable()
export class DaySyncSweeper extends PeriodicSweep {
  protected readonly logger = new Logger('DaySyncSweeper');

  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.yourDay.sweepMs;
  }

  protected work(): Promise<number> {
    return this.commands.execute(new QueueDueDayViewsCommand());
  }

  protected override describe(count: number): string {
    return `Queued ${count} view fetch(es)`;
  }
}
