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

  /** Redis outages surface here; BullMQ reconnects by itself. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`Worker connection: ${error.message}`);
  }
}
