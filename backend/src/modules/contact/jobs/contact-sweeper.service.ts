import { Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '../../../core/queue/periodic-sweep.js';
import { ContactDeliveryService, SWEEP_AFTER_MS } from '../contact-delivery.service.js';

/**
 * Worker-side safety net: every minute, queues again the messages that are stored but not
 * delivered (Redis was away when they arrived, a worker died). Job ids make extra runs harmless.
 */
@Injectable()
export class ContactSweeper extends PeriodicSweep {
  protected readonly logger = new Logger('ContactSweeper');

  constructor(private readonly delivery: ContactDeliveryService) {
    super();
  }

  protected intervalMs(): number {
    return SWEEP_AFTER_MS;
  }

  protected work(): Promise<number> {
    return this.delivery.sweep();
  }

  protected override describe(count: number): string {
    return `Queued ${count} stored contact message(s) again`;
  }
}
