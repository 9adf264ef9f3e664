import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOr, text } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';
import type { AuthDb } from '../entities/index.js';

/** 'Descargar mis datos', auth's part: sign-in identities, sessions (never the token hash), the beta invitation. */
@EventsHandler(CollectingPersonalDataEvent)
export class AuthPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const db = this.em.getKysely<AuthDb>();
    const [identities, sessions, invitations] = await Promise.all([
      db
        .selectFrom('user_identities')
        .select(['provider', 'subject', 'email', 'created_at', 'last_login_at'])
        .where('user_id', '=', event.userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('sessions')
        .select(['created_at', 'last_used_at', 'expires_at', 'revoked_at', 'ip', 'user_agent'])
        .where('user_id', '=', event.userId)
        .orderBy('created_at')
        .execute(),
      db.selectFrom('beta_invites').select(['email', 'created_at']).where('email', '=', event.email.toLowerCase()).execute(),
    ]);
    event.parts.sign_in_identities = identities.map((row) => ({
      provider: String(row.provider),
      subject: String(row.subject),
      email: text(row.email),
      created_at: isoOr(row.created_at),
      last_login_at: iso(row.last_login_at),
    }));
    event.parts.sessions = sessions.map((row) => ({
      created_at: isoOr(row.created_at),
      last_used_at: iso(row.last_used_at),
      expires_at: iso(row.expires_at),
      revoked_at: iso(row.revoked_at),
      ip: text(row.ip),
      user_agent: text(row.user_agent),
    }));
    const invitation = invitations[0];
    event.parts.beta_invitation = invitation ? { email: String(invitation.email), created_at: isoOr(invitation.created_at) } : null;
  }
}
