import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { ErasingAccountEvent } from '../../data-rights/public/events.js';
import type { ContactDb } from '../entities/index.js';

/** Erasure, contact's part: the messages the person sent, signed in or by their e-mail. */
@EventsHandler(ErasingAccountEvent)
export class ContactErasureHandler implements IEventHandler<ErasingAccountEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: ErasingAccountEvent): Promise<void> {
    await this.em
      .getKysely<ContactDb>()
      .deleteFrom('contact_messages')
      .where((eb) => eb.or([eb('user_id', '=', event.userId), eb(eb.fn('lower', ['email']), '=', event.email.toLowerCase())]))
      .execute();
  }
}
