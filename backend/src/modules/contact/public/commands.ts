import { Command, Query } from '@nestjs/cqrs';
import type { ContactMessageDto, ContactMessageListFilter } from '@life/contracts';

/** Admin: contact messages, newest first, optionally by subject or delivery status. */
export class ListContactMessagesQuery extends Query<ContactMessageDto[]> {
  constructor(readonly filter: ContactMessageListFilter) {
    super();
  }
}

export class MarkContactMessageHandledCommand extends Command<ContactMessageDto> {
  constructor(
    readonly id: string,
    readonly adminEmail: string,
  ) {
    super();
  }
}
