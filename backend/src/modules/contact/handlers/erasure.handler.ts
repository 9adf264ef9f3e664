import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { ErasingAccountEvent } from '../../data-rights/public/events.js';

/** Erasure, contact's part: the messages the person sent, signed in or by their e-mail. */
@EventsHandler(ErasingAccountEvent)
export class ContactErasureHandler implements IEventHandler<ErasingAccountEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: ErasingAccountEvent): Promise<void> {
    await this.em
      .getConnection()
      .execute('delete from contact_messages where user_id = ? or lower(email) = ?', [event.userId, event.email.toLowerCase()], 'run');
  }
}
