import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../entities/user.entity.js';
import { PersonProfileQuery, type PersonProfile } from '../public/queries.js';

@QueryHandler(PersonProfileQuery)
export class PersonProfileHandler implements IQueryHandler<PersonProfileQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ userId }: PersonProfileQuery): Promise<PersonProfile | null> {
    const user = await this.em.findOne(User, { id: userId }, { fields: ['username', 'email', 'emailVerified'] });
    return user ? { username: user.username, email: user.email, emailVerified: user.emailVerified } : null;
  }
}
