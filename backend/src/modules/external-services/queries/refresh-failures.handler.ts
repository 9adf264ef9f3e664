import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { MikroORM } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import type { RefreshFailure } from '@life/contracts';
import type { ExternalServicesDb } from '../entities/index.js';
import { RefreshFailuresQuery } from '../public/queries.js';

/**
 * The token-refresh outcomes stored on each connection (refresh_failures, last_error, status),
 * grouped by service, for Salud. Runs outside any request context (the global EntityManager).
 */
@QueryHandler(RefreshFailuresQuery)
export class RefreshFailuresHandler implements IQueryHandler<RefreshFailuresQuery> {
  constructor(private readonly orm: MikroORM) {}

  /** Services with connections whose refresh is failing or gave up, the most recent failure first. */
  async execute({ limit }: RefreshFailuresQuery): Promise<RefreshFailure[]> {
    const rows = await this.orm.em
      .getKysely<ExternalServicesDb>()
      .selectFrom('service_connections as c')
      .innerJoin('external_services as s', 's.id', 'c.service_id')
      .select((eb) => [
        's.service_name as service',
        eb.cast<number>(eb.fn.countAll().filterWhere('c.status', '=', 'connected'), 'integer').as('failing'),
        eb.cast<number>(eb.fn.countAll().filterWhere('c.status', '=', 'needs_reconnect'), 'integer').as('needs_reconnect'),
        eb.fn.max('c.updated_at').as('last_failure_at'),
        // The most recent error: the first of them newest first (Kysely has no array subscript).
        sql<string | null>`(${eb.fn
          .agg<string[]>('array_agg', ['c.last_error'])
          .orderBy('c.updated_at', 'desc')
          .filterWhere('c.last_error', 'is not', null)})[1]`.as('last_error'),
      ])
      .where((eb) => eb.or([eb('c.refresh_failures', '>', 0), eb('c.status', '=', 'needs_reconnect')]))
      .groupBy('s.service_name')
      .orderBy('last_failure_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      service: row.service,
      failing: Number(row.failing),
      needsReconnect: Number(row.needs_reconnect),
      lastFailureAt: new Date(row.last_failure_at).toISOString(),
      lastError: row.last_error,
    }));
  }
}
