import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { PeriodicSweep } from '../../../core/queue/periodic-sweep.js';
import { BillingPrivacyService } from '../billing-privacy.service.js';
import { BillingService } from '../billing.service.js';
import { LateRefundService } from '../late-refund.service.js';

/** Seats stay held this long after a checkout's expiry before the sweeper frees them. */
const RESERVATION_GRACE_MS = 10 * 60_000;

/**
 * Worker-side safety net: re-queues inbox events that were stored but never processed
 * (Redis was away, a worker died) unless they gave up, frees seats of abandoned checkouts, retries
 * the automatic refunds of late checkouts Stripe has not confirmed yet and deletes anonymised
 * records past their legal keeping period.
 */
@Injectable()
export class BillingSweeper extends PeriodicSweep {
  protected readonly logger = new Logger('BillingSweeper');

  constructor(
    private readonly billing: BillingService,
    private readonly privacy: BillingPrivacyService,
    private readonly lateRefunds: LateRefundService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.billing.sweepMs;
  }

  protected async work(): Promise<number> {
    let count = 0;
    for (const id of await this.billing.pendingEventIds(this.config.billing.sweepMs)) count += (await this.billing.enqueue(id)) ? 1 : 0;
    for (const id of await this.billing.expiredReservationIds(RESERVATION_GRACE_MS)) count += (await this.billing.release(id)) ? 1 : 0;
    // Automatic refunds of late checkouts that Stripe has not confirmed yet (idempotent).
    for (const id of await this.lateRefunds.pendingIds()) count += (await this.lateRefunds.refundSafely(id)) ? 1 : 0;
    // Anonymised records of erased members past their legal keeping period.
    count += await this.privacy.purgeExpiredRecords();
    return count;
  }
}
