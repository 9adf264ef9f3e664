import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import type { DeliveryOutcome } from '../contact-delivery.service.js';
import { DeliverContactMessageCommand } from '../public/commands.js';
import { CONTACT_MAIL_QUEUE, type ContactMailJob } from './contact-mail.job.js';

@Processor(CONTACT_MAIL_QUEUE)
export class ContactMailProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  process(job: Job<ContactMailJob>): Promise<{ outcome: DeliveryOutcome }> {
    // attemptsMade counts the attempts that failed before this one.
    return this.commands.execute(new DeliverContactMessageCommand(job.data.messageId, job.attemptsMade, job.opts.attempts ?? 1));
  }
}
