import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ContactDeliveryService, type DeliveryOutcome } from '../contact-delivery.service.js';
import { ContactMailer } from '../contact-mailer.js';
import { DeliverContactMessageCommand, DeliverReconnectNoticeCommand } from '../public/commands.js';
import { ReconnectNotices, type NoticeOutcome } from '../reconnect-notices.service.js';

@CommandHandler(DeliverContactMessageCommand)
export class DeliverContactMessageHandler implements ICommandHandler<DeliverContactMessageCommand> {
  constructor(private readonly delivery: ContactDeliveryService) {}
  async execute({ messageId, attemptsMade, attempts }: DeliverContactMessageCommand): Promise<{ outcome: DeliveryOutcome }> {
    // The last attempt marks the message 'failed' when it fails too.
    const finalAttempt = attemptsMade + 1 >= attempts;
    return { outcome: await this.delivery.deliver(messageId, { finalAttempt }) };
  }
}

@CommandHandler(DeliverReconnectNoticeCommand)
export class DeliverReconnectNoticeHandler implements ICommandHandler<DeliverReconnectNoticeCommand> {
  constructor(
    private readonly notices: ReconnectNotices,
    private readonly mailer: ContactMailer,
  ) {}
  async execute({ noticeId, attemptsMade, attempts }: DeliverReconnectNoticeCommand): Promise<{ outcome: NoticeOutcome }> {
    return { outcome: await this.notices.deliver(noticeId, this.mailer, { finalAttempt: attemptsMade + 1 >= attempts }) };
  }
}

/** What the worker roles dispatch (the contact-mail queue). */
export const CONTACT_WORKER_HANDLERS = [DeliverContactMessageHandler, DeliverReconnectNoticeHandler];
