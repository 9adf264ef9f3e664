import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import type { OAuthServerDb } from '../entities/index.js';
import { AppNamesQuery, type AppNames } from '../public/queries.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@QueryHandler(AppNamesQuery)
export class AppNamesHandler implements IQueryHandler<AppNamesQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ ids }: AppNamesQuery): Promise<AppNames> {
    const db = this.em.getKysely<OAuthServerDb>();
    const rowIds = ids.clients.filter((id) => UUID.test(id));
    const publicIds = ids.clients.filter((id) => !UUID.test(id));
    const [byRow, byPublic, grants, codes, families] = await Promise.all([
      rowIds.length === 0 ? [] : db.selectFrom('oauth_clients').select(['id as key', 'name']).where('id', 'in', rowIds).execute(),
      publicIds.length === 0 ? [] : db.selectFrom('oauth_clients').select(['client_id as key', 'name']).where('client_id', 'in', publicIds).execute(),
      ids.grants.length === 0
        ? []
        : db
            .selectFrom('oauth_grants as g')
            .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
            .select(['g.id as key', 'c.name'])
            .where('g.id', 'in', [...ids.grants])
            .execute(),
      ids.codes.length === 0
        ? []
        : db
            .selectFrom('oauth_codes as o')
            .innerJoin('oauth_clients as c', 'c.id', 'o.client_id')
            .select(['o.id as key', 'c.name'])
            .where('o.id', 'in', [...ids.codes])
            .execute(),
      ids.families.length === 0
        ? []
        : db
            .selectFrom('oauth_tokens as t')
            .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
            .select(['t.family_id as key', 'c.name'])
            .where('t.family_id', 'in', [...ids.families])
            .execute(),
    ]);
    const record = (rows: readonly { key: string; name: string }[]) => Object.fromEntries(rows.map((row) => [row.key, row.name]));
    return { clients: { ...record(byRow), ...record(byPublic) }, grants: record(grants), codes: record(codes), families: record(families) };
  }
}
