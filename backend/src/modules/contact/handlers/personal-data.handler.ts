import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOr } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';
import type { ContactDb } from '../entities/index.js';

/** 'Descargar mis datos', contact's part: the messages they sent (never the keyed IP hash) and the reconnect notices mailed to them. */
@EventsHandler(CollectingPersonalDataEvent)
export class ContactPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const messages = await this.em
      .getKysely<ContactDb>()
      .selectFrom('contact_messages')
      .select(['created_at', 'name', 'email', 'subject', 'message', 'status', 'sent_at'])
      .where((eb) => eb.or([eb('user_id', '=', event.userId), eb(eb.fn('lower', ['email']), '=', event.email.toLowerCase())]))
      .orderBy('created_at')
      .execute();
    event.parts.contact_messages = messages.map((row) => ({
      created_at: isoOr(row.created_at),
      name: String(row.name),
      email: String(row.email),
      subject: String(row.subject),
      message: String(row.message),
      status: String(row.status),
      sent_at: iso(row.sent_at),
    }));
    const notices = await this.em
      .getKysely<ContactDb>()
      .selectFrom('reconnect_notices')
      .select(['created_at', 'service_name', 'language', 'status', 'sent_at'])
      .where('user_id', '=', event.userId)
      .orderBy('created_at')
      .execute();
    event.parts.reconnect_notices = notices.map((row) => ({
      created_at: isoOr(row.created_at),
      service: String(row.service_name),
      language: String(row.language),
      status: String(row.status),
      sent_at: iso(row.sent_at),
    }));
  }
}
