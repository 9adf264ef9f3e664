import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ExternalServicesDb } from '../entities/index.js';
import { CatalogNamesQuery } from '../public/queries.js';

@QueryHandler(CatalogNamesQuery)
export class CatalogNamesHandler implements IQueryHandler<CatalogNamesQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ ids }: CatalogNamesQuery): Promise<{ services: Record<string, string>; connections: Record<string, string> }> {
    const db = this.em.getKysely<ExternalServicesDb>();
    const [services, connections] = await Promise.all([
      ids.services.length === 0
        ? []
        : db
            .selectFrom('external_services')
            .select(['id', 'service_name'])
            .where('id', 'in', [...ids.services])
            .execute(),
      ids.connections.length === 0
        ? []
        : db
            .selectFrom('service_connections as c')
            .innerJoin('external_services as s', 's.id', 'c.service_id')
            .select(['c.id', 's.service_name'])
            .where('c.id', 'in', [...ids.connections])
            .execute(),
    ]);
    return {
      services: Object.fromEntries(services.map((row) => [row.id, row.service_name])),
      connections: Object.fromEntries(connections.map((row) => [row.id, row.service_name])),
    };
  }
}
