import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ContactDeliveryService, type DeliveryOutcome } from '../contact-delivery.service.js';
import { DeliverContactMessageCommand } from '../public/commands.js';

@CommandHandler(DeliverContactMessageCommand)
export class DeliverContactMessageHandler implements ICommandHandler<DeliverContactMessageCommand> {
  constructor(private readonly delivery: ContactDeliveryService) {}
  async execute({ messageId, attemptsMade, attempts }: DeliverContactMessageCommand): Promise<{ outcome: DeliveryOutcome }> {
    // The last attempt marks the message 'failed' when it fails too.
    const finalAttempt = attemptsMade + 1 >= attempts;
    return { outcome: await this.delivery.deliver(messageId, { finalAttempt }) };
  }
}

/** What the worker roles dispatch (the contact-mail queue). */
export const CONTACT_WORKER_HANDLERS = [DeliverContactMessageHandler];
