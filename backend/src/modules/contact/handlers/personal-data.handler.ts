import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOr, type Row } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';

/** 'Descargar mis datos', contact's part: the messages they sent (never the keyed IP hash). */
@EventsHandler(CollectingPersonalDataEvent)
export class ContactPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const messages = await this.em.getConnection().execute<Row[]>(
      `select created_at, name, email, subject, message, status, sent_at from contact_messages
        where user_id = ? or lower(email) = ? order by created_at`,
      [event.userId, event.email.toLowerCase()],
    );
    event.parts.contact_messages = messages.map((row) => ({
      created_at: isoOr(row.created_at),
      name: String(row.name),
      email: String(row.email),
      subject: String(row.subject),
      message: String(row.message),
      status: String(row.status),
      sent_at: iso(row.sent_at),
    }));
  }
}
