import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { Session } from '../entities/session.entity.js';
import { SessionStartQuery } from '../public/queries.js';

@QueryHandler(SessionStartQuery)
export class SessionStartHandler implements IQueryHandler<SessionStartQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ sessionId }: SessionStartQuery): Promise<Date | null> {
    const session = await this.em.findOne(Session, { id: sessionId }, { fields: ['createdAt'] });
    return session ? session.createdAt : null;
  }
}
