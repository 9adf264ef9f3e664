import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ContactDeliveryService, SWEEP_AFTER_MS } from '../contact-delivery.service.js';

/**
 * Worker-side safety net: every minute, queues again the messages that are stored but not
 * delivered (Redis was away when they arrived, a worker died). Every worker runs it; the job
 * ids make the extra runs harmless.
 */
@Injectable()
export class ContactSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ContactSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(private readonly delivery: ContactDeliveryService) {}

  onApplicationBootstrap(): void {
    // Once at start too: a worker that comes back after an outage picks up what waited.
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_AFTER_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const queued = await this.delivery.sweep();
      if (queued > 0) this.logger.log(`Queued ${queued} stored contact message(s) again`);
    } catch (error) {
      this.logger.warn(`Sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
    }
  }
}
