import { Command, Query } from '@nestjs/cqrs';
import type { ContactAccepted, ContactMessageDto, ContactMessageListFilter, ContactMessageSubmission } from '@life/contracts';
import type { DeliveryOutcome } from '../contact-delivery.service.js';
import type { NoticeOutcome } from '../reconnect-notices.service.js';

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

/**
 * The contact page: limited per IP and per e-mail, a filled honeypot is dropped with the same
 * answer, and a bearer token (when the page sent one) links the message to that account.
 */
export class SendContactMessageCommand extends Command<ContactAccepted> {
  constructor(
    readonly input: ContactMessageSubmission,
    readonly ip: string,
    readonly bearerToken: string | undefined,
  ) {
    super();
  }
}

/** Worker: one delivery attempt of a stored message (throws so that the queue retries). */
export class DeliverContactMessageCommand extends Command<{ outcome: DeliveryOutcome }> {
  constructor(
    readonly messageId: string,
    /** Attempts that failed before this one. */
    readonly attemptsMade: number,
    /** Attempts the job has in all. */
    readonly attempts: number,
  ) {
    super();
  }
}

/** Worker: one delivery attempt of a reconnect notice's mail (throws so that the queue retries). */
export class DeliverReconnectNoticeCommand extends Command<{ outcome: NoticeOutcome }> {
  constructor(
    readonly noticeId: string,
    readonly attemptsMade: number,
    readonly attempts: number,
  ) {
    super();
  }
}
