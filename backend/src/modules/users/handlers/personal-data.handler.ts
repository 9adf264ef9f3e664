import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';
import { User } from '../entities/user.entity.js';

/** 'Descargar mis datos', users' part: the profile. */
@EventsHandler(CollectingPersonalDataEvent)
export class UsersPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const user = await this.em.findOne(
      User,
      { id: event.userId },
      { fields: ['username', 'email', 'emailVerified', 'role', 'createdAt', 'updatedAt'], disableIdentityMap: true },
    );
    if (!user) return;
    event.parts.profile = {
      id: user.id,
      username: user.username,
      email: user.email,
      email_verified: user.emailVerified === true,
      role: user.role,
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt.toISOString(),
    };
  }
}
