import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { Connection } from '../entities/connection.entity.js';
import { PersonConnectionsQuery, type PersonConnection } from '../public/queries.js';

@QueryHandler(PersonConnectionsQuery)
export class PersonConnectionsHandler implements IQueryHandler<PersonConnectionsQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ userId }: PersonConnectionsQuery): Promise<PersonConnection[]> {
    const rows = await this.em.find(
      Connection,
      { user: userId },
      { populate: ['service'], fields: ['status', 'createdAt', 'service.serviceName'], orderBy: { service: { serviceName: 'asc' } } },
    );
    return rows.map((row) => ({ service_name: row.service.serviceName, status: row.status, connected_at: row.createdAt ?? null }));
  }
}
