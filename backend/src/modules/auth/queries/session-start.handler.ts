import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { Session } from '../entities/session.entity.js';
import { UserIdentity } from '../entities/user-identity.entity.js';
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

  async execute({ token }: SessionPersonQuery): Promise<{ userId: string; email: string } | null> {
    const live = await this.sessions.authenticatePerson(token);
    return live ? { userId: live.person.id, email: live.person.email } : null;
  }
}

@QueryHandler(SignInProvidersQuery)
export class SignInProvidersHandler implements IQueryHandler<SignInProvidersQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ userId }: SignInProvidersQuery): Promise<string[]> {
    const rows = await this.em.find(UserIdentity, { user: userId }, { fields: ['provider'] });
    return [...new Set(rows.map((row) => row.provider))].sort();
  }
}
