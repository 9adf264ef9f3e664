import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../entities/user.entity.js';
import { PersonNamesQuery } from '../public/queries.js';

@QueryHandler(PersonNamesQuery)
export class PersonNamesHandler implements IQueryHandler<PersonNamesQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ ids }: PersonNamesQuery): Promise<Record<string, string>> {
    if (ids.length === 0) return {};
    const users = await this.em.find(User, { id: { $in: [...ids] } }, { fields: ['id', 'username'] });
    return Object.fromEntries(users.map((user) => [user.id, user.username]));
  }
}
