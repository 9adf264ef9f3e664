import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { PeriodicSweep } from '../queue/periodic-sweep.js';
import { OutboxService } from './outbox.service.js';

/** Relays what was committed but never reached the queue (a crash between the two, Redis away). */
@Injectable()
export class OutboxRelaySweeper extends PeriodicSweep {
  protected readonly logger = new Logger('OutboxRelaySweeper');

  constructor(
    private readonly outbox: OutboxService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.outbox.sweepMs;
  }

  protected work(): Promise<number> {
    // Older than a few seconds: the request that staged it is relaying it right now.
    return this.outbox.relayPending(Math.min(5000, this.config.outbox.sweepMs));
  }

  protected override describe(count: number): string {
    return `Relayed ${count} outbox message(s) left behind`;
  }
}
