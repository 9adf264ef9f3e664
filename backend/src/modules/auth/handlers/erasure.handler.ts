import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { ErasingAccountEvent, ErasureRequestedEvent } from '../../data-rights/public/events.js';
import { BetaInvite } from '../entities/beta-invite.entity.js';
import { SessionService } from '../session.service.js';

/**
 * Erasure, auth's part: signed out everywhere as soon as it is asked for (and again when the job
 * runs, in case a session slipped in); the beta invitation that named their e-mail is deleted.
 * Identities go with the account row (foreign key cascade).
 */
@EventsHandler(ErasureRequestedEvent, ErasingAccountEvent)
export class AuthErasureHandler implements IEventHandler<ErasureRequestedEvent | ErasingAccountEvent> {
  constructor(
    private readonly sessions: SessionService,
    private readonly em: EntityManager,
  ) {}

  async handle(event: ErasureRequestedEvent | ErasingAccountEvent): Promise<void> {
    await this.sessions.revokeAllFor(event.userId);
    if (event instanceof ErasingAccountEvent) await this.em.nativeDelete(BetaInvite, { email: event.email.toLowerCase() });
  }
}
