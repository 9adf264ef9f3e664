import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import type { DeliveryOutcome } from '../contact-delivery.service.js';
import type { NoticeOutcome } from '../reconnect-notices.service.js';
import { DeliverContactMessageCommand, DeliverReconnectNoticeCommand } from '../public/commands.js';
import { CONTACT_MAIL_QUEUE, DELIVER_RECONNECT_NOTICE, type ContactMailJob } from './contact-mail.job.js';

@Processor(CONTACT_MAIL_QUEUE)
export class ContactMailProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  process(job: Job<ContactMailJob>): Promise<{ outcome: DeliveryOutcome | NoticeOutcome }> {
    // attemptsMade counts the attempts that failed before this one.
    if (job.name === DELIVER_RECONNECT_NOTICE) {
      return this.commands.execute(new DeliverReconnectNoticeCommand(job.data.noticeId ?? '', job.attemptsMade, job.opts.attempts ?? 1));
    }
    return this.commands.execute(new DeliverContactMessageCommand(job.data.messageId ?? '', job.attemptsMade, job.opts.attempts ?? 1));
  }
}
