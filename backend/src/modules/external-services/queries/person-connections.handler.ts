import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ExternalServicesDb } from '../entities/index.js';
import { PersonConnectionsQuery, type PersonConnection } from '../public/queries.js';

/**
 * One plain statement (no entities, no unit of work): the dashboard's "Tu día" views ask it on
 * every read, and `/api/v1/services` for every app call (docs/benchmarks.md, Tu día).
 */
@QueryHandler(PersonConnectionsQuery)
export class PersonConnectionsHandler implements IQueryHandler<PersonConnectionsQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ userId }: PersonConnectionsQuery): Promise<PersonConnection[]> {
    const rows = await this.em
      .getKysely<ExternalServicesDb>()
      .selectFrom('service_connections as c')
      .innerJoin('external_services as s', 's.id', 'c.service_id')
      .select(['s.service_name', 'c.status', 'c.created_at'])
      .where('c.user_id', '=', userId)
      .orderBy('s.service_name')
      .execute();
    return rows.map((row) => ({ service_name: row.service_name, status: row.status, connected_at: row.created_at ? new Date(row.created_at) : null }));
  }
}
