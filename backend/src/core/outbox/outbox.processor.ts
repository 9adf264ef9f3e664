import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AwaitingEventPublisher } from '../events/awaiting-event-publisher.js';
import { reviveDurable } from './durable-event.js';
import { OUTBOX_QUEUE, OutboxService, type OutboxJob } from './outbox.service.js';

/** Delivers an outbox message to every handler of its event; a failing handler fails the job (retried, then kept for Salud). */
@Processor(OUTBOX_QUEUE, { concurrency: 4 })
export class OutboxProcessor extends WorkerHost {
  private readonly logger = new Logger('OutboxWorker');

  constructor(
    private readonly outbox: OutboxService,
    private readonly events: AwaitingEventPublisher,
  ) {
    super();
  }

  async process(job: Job<OutboxJob>): Promise<{ delivered: boolean }> {
    const message = await this.outbox.find(job.data.messageId);
    // Only delivered rows are purged: a missing row was delivered (and forgotten) already.
    if (!message || message.deliveredAt) return { delivered: false };
    const event = reviveDurable(message.type, message.payload);
    if (!event) throw new Error(`No durable event named ${message.type} in this build`);
    await this.events.publishStrict(event);
    await this.outbox.markDelivered(message.id);
    return { delivered: true };
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`Worker connection: ${error.message}`);
  }
}
