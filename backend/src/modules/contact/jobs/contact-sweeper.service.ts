import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { PeriodicSweep } from '../../../core/queue/periodic-sweep.js';
import { ContactDeliveryService } from '../contact-delivery.service.js';
import { ReconnectNotices } from '../reconnect-notices.service.js';

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
    private readonly notices: ReconnectNotices,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.contact.sweepMs;
  }

  protected async work(): Promise<number> {
    // Reconnect notices too (without SMTP they stay pending, like messages).
    const messages = await this.delivery.sweep(this.config.contact.sweepMs);
    return messages + (this.delivery.configured ? await this.notices.sweep(this.config.contact.sweepMs) : 0);
  }

  protected override describe(count: number): string {
    return `Queued ${count} stored contact message(s) or reconnect notice(s) again`;
  }
}
