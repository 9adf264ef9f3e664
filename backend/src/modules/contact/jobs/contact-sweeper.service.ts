import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { PeriodicSweep } from '../../../core/queue/periodic-sweep.js';
import { ContactDeliveryService } from '../contact-delivery.service.js';

/**
 * Worker-side safety net: every minute (CONTACT_SWEEP_MS), queues again the messages stored more
 * than that long ago and not delivered (Redis was away when they arrived, a worker died). Job ids
 * make extra runs harmless.
 */
@Injectable()
export class ContactSweeper extends PeriodicSweep {
  protected readonly logger = new Logger('ContactSweeper');

  constructor(
    private readonly delivery: ContactDeliveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.contact.sweepMs;
  }

  protected work(): Promise<number> {
    return this.delivery.sweep(this.config.contact.sweepMs);
  }

  protected override describe(count: number): string {
    return `Queued ${count} stored contact message(s) again`;
  }
}
