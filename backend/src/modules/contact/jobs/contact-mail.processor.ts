import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { ContactDeliveryService, type DeliveryOutcome } from '../contact-delivery.service.js';
import { CONTACT_MAIL_QUEUE, type ContactMailJob } from './contact-mail.job.js';

@Processor(CONTACT_MAIL_QUEUE)
export class ContactMailProcessor extends WorkerHost {
  constructor(private readonly delivery: ContactDeliveryService) {
    super();
  }

  async process(job: Job<ContactMailJob>): Promise<{ outcome: DeliveryOutcome }> {
    // attemptsMade counts the attempts that failed before this one.
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return { outcome: await this.delivery.deliver(job.data.messageId, { finalAttempt }) };
  }
}
