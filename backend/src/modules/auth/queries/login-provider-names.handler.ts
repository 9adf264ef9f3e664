import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { LoginProvider } from '../entities/login-provider.entity.js';
import { LoginProviderNamesQuery } from '../public/queries.js';

@QueryHandler(LoginProviderNamesQuery)
export class LoginProviderNamesHandler implements IQueryHandler<LoginProviderNamesQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ ids }: LoginProviderNamesQuery): Promise<Record<string, string>> {
    if (ids.length === 0) return {};
    const rows = await this.em.find(LoginProvider, { id: { $in: [...ids] } }, { fields: ['id', 'serviceName'] });
    return Object.fromEntries(rows.map((row) => [row.id, row.serviceName]));
  }
}
