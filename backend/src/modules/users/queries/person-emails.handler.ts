import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../entities/user.entity.js';
import { PeopleMatchingEmailQuery, PersonEmailsQuery } from '../public/queries.js';

@QueryHandler(PersonEmailsQuery)
export class PersonEmailsHandler implements IQueryHandler<PersonEmailsQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ ids }: PersonEmailsQuery): Promise<Record<string, string>> {
    if (ids.length === 0) return {};
    const users = await this.em.fork().find(User, { id: { $in: [...new Set(ids)] } }, { fields: ['id', 'email'] });
    return Object.fromEntries(users.map((user) => [user.id, user.email]));
  }
}

/** Escapes LIKE's wildcards so a search for "a_b%" finds exactly that text. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

@QueryHandler(PeopleMatchingEmailQuery)
export class PeopleMatchingEmailHandler implements IQueryHandler<PeopleMatchingEmailQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ search, limit }: PeopleMatchingEmailQuery): Promise<string[]> {
    const text = search.trim().toLowerCase();
    if (!text) return [];
    // E-mails are stored lower-cased: a plain LIKE on the lower-cased search is case-insensitive.
    const users = await this.em.fork().find(User, { email: { $like: `%${likeLiteral(text)}%` } }, { fields: ['id'], limit, orderBy: { id: 'asc' } });
    return users.map((user) => user.id);
  }
}
