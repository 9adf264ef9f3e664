import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { Session } from '../entities/session.entity.js';
import type { AuthDb } from '../entities/index.js';
import { SignInProvidersQuery, SessionPersonQuery, SessionStartQuery } from '../public/queries.js';
import { SessionService } from '../session.service.js';

@QueryHandler(SessionStartQuery)
export class SessionStartHandler implements IQueryHandler<SessionStartQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ sessionId }: SessionStartQuery): Promise<Date | null> {
    const session = await this.em.findOne(Session, { id: sessionId }, { fields: ['createdAt'] });
    return session ? session.createdAt : null;
  }
}

@QueryHandler(SessionPersonQuery)
export class SessionPersonHandler implements IQueryHandler<SessionPersonQuery> {
  constructor(private readonly sessions: SessionService) {}

  async execute({ token }: SessionPersonQuery): Promise<{ userId: string; email: string; sessionId: string } | null> {
    const live = await this.sessions.authenticatePerson(token);
    return live ? { userId: live.person.id, email: live.person.email, sessionId: live.sessionId } : null;
  }
}

/** How long a person's sign-in providers are remembered per process: the sessions' own bound (decision 0018). */
const SIGN_IN_PROVIDERS_MS = 1000;
const SIGN_IN_PROVIDERS_MAX = 10_000;

@QueryHandler(SignInProvidersQuery)
export class SignInProvidersHandler implements IQueryHandler<SignInProvidersQuery> {
  /** userId → the answer and when it was asked: a dashboard's burst of lists reads the identities once. */
  private readonly remembered = new Map<string, { at: number; providers: Promise<string[]> }>();

  constructor(private readonly em: EntityManager) {}

  /** On the dashboard's every list: one plain indexed query, no entities, at most once a second per person and process. */
  execute({ userId }: SignInProvidersQuery): Promise<string[]> {
    const now = Date.now();
    const known = this.remembered.get(userId);
    if (known && now - known.at < SIGN_IN_PROVIDERS_MS) return known.providers;
    if (this.remembered.size >= SIGN_IN_PROVIDERS_MAX) this.remembered.clear();
    const providers = this.read(userId);
    this.remembered.set(userId, { at: now, providers });
    providers.catch(() => this.remembered.delete(userId));
    return providers;
  }

  private async read(userId: string): Promise<string[]> {
    const rows = await this.em
      .getKysely<AuthDb>()
      .selectFrom('user_identities')
      .select('provider')
      .distinct()
      .where('user_id', '=', userId)
      .orderBy('provider')
      .execute();
    return rows.map((row) => row.provider);
  }
}
