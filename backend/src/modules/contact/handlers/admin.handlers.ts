import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ContactMessageDto } from '@life/contracts';
import { ContactService } from '../contact.service.js';
import { ListContactMessagesQuery, MarkContactMessageHandledCommand } from '../public/commands.js';

@QueryHandler(ListContactMessagesQuery)
export class ListContactMessagesHandler implements IQueryHandler<ListContactMessagesQuery> {
  constructor(private readonly contact: ContactService) {}
  execute({ filter }: ListContactMessagesQuery): Promise<ContactMessageDto[]> {
    return this.contact.list(filter);
  }
}

@CommandHandler(MarkContactMessageHandledCommand)
export class MarkContactMessageHandledHandler implements ICommandHandler<MarkContactMessageHandledCommand> {
  constructor(private readonly contact: ContactService) {}
  execute({ id, adminEmail }: MarkContactMessageHandledCommand): Promise<ContactMessageDto> {
    return this.contact.markHandled(id, adminEmail);
  }
}

export const CONTACT_ADMIN_HANDLERS = [ListContactMessagesHandler, MarkContactMessageHandledHandler];
