import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { ApplyStripeEventCommand } from '../public/commands.js';
import { STRIPE_EVENTS_QUEUE, type StripeEventJob } from './stripe-events.job.js';

@Processor(STRIPE_EVENTS_QUEUE)
export class StripeEventsProcessor extends WorkerHost {
  private readonly logger = new Logger('StripeEventsWorker');

  constructor(private readonly commands: CommandBus) {
    super();
  }

  async process(job: Job<StripeEventJob>): Promise<{ applied: boolean }> {
    return { applied: await this.commands.execute(new ApplyStripeEventCommand(job.data.eventId)) };
  }

  /**
   * A job that used its last attempt leaves the queue: its event row (failed_at) is what Salud shows
   * and what an admin retries or dismisses, so the generic failed-jobs list does not show it twice.
   */
  @OnWorkerEvent('failed')
  async onFailed(job: Job<StripeEventJob> | undefined): Promise<void> {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    await job.remove().catch((error: unknown) => this.logger.warn(`Could not remove the given-up job ${job.id}: ${String(error)}`));
  }

  /** Redis outages surface here; BullMQ reconnects by itself. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`Worker connection: ${error.message}`);
  }
}
