import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { BillingService } from '../billing.service.js';

/** Seats stay held this long after a checkout's expiry before the sweeper frees them. */
const RESERVATION_GRACE_MS = 10 * 60_000;

/**
 * Worker-side safety net: re-queues inbox events that were stored but never processed
 * (Redis was away, a worker died) and frees seats of abandoned checkouts.
 */
@Injectable()
export class BillingSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BillingSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly billing: BillingService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.billing.sweepMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const id of await this.billing.pendingEventIds(this.config.billing.sweepMs)) await this.billing.enqueue(id);
      for (const id of await this.billing.expiredReservationIds(RESERVATION_GRACE_MS)) await this.billing.release(id);
    } catch (error) {
      this.logger.warn(`Sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
    }
  }
}
