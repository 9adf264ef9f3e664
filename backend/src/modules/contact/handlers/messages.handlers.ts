import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ContactAccepted } from '@life/contracts';
import { ContactService } from '../contact.service.js';
import { SendContactMessageCommand } from '../public/commands.js';

@CommandHandler(SendContactMessageCommand)
export class SendContactMessageHandler implements ICommandHandler<SendContactMessageCommand> {
  constructor(private readonly contact: ContactService) {}
  async execute({ input, ip, bearerToken }: SendContactMessageCommand): Promise<ContactAccepted> {
    // The same answer whether the message was kept or dropped by the honeypot.
    await this.contact.submit(input, { ip, bearerToken });
    return { status: 'received' };
  }
}

/** What the web roles dispatch (the contact page). */
export const CONTACT_WEB_HANDLERS = [SendContactMessageHandler];
