import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { PeriodicSweep } from '../../../core/queue/periodic-sweep.js';
import { QueueDueRefreshesCommand } from '../public/commands.js';

/**
 * Worker side: every TOKEN_REFRESH_SWEEP_MS, queues a refresh for each connection whose access
 * token expires within the margin, and for idle ones (keep-alive). Job ids and the
 * per-connection lock make the overlap between workers harmless.
 */
@Injectable()
export class TokenRefreshSweeper extends PeriodicSweep {
  protected readonly logger = new Logger('TokenRefreshSweeper');

  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.tokenRefresh.sweepMs;
  }

  protected work(): Promise<number> {
    return this.commands.execute(new QueueDueRefreshesCommand());
  }

  protected override describe(count: number): string {
    return `Queued ${count} connection refresh(es)`;
  }
}
