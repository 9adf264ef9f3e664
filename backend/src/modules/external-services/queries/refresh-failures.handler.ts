import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { MikroORM } from '@mikro-orm/postgresql';
import type { RefreshFailure } from '@life/contracts';
import { RefreshFailuresQuery } from '../public/queries.js';

interface Row {
  service: string;
  failing: number;
  needs_reconnect: number;
  last_failure_at: Date | string;
  last_error: string | null;
}

/**
 * The token-refresh outcomes stored on each connection (refresh_failures, last_error, status),
 * grouped by service, for Salud. Runs outside any request context (the global EntityManager).
 */
@QueryHandler(RefreshFailuresQuery)
export class RefreshFailuresHandler implements IQueryHandler<RefreshFailuresQuery> {
  constructor(private readonly orm: MikroORM) {}

  /** Services with connections whose refresh is failing or gave up, the most recent failure first. */
  async execute({ limit }: RefreshFailuresQuery): Promise<RefreshFailure[]> {
    const rows = await this.orm.em.getConnection().execute<Row[]>(
      `select s.service_name as service,
              count(*) filter (where c.status = 'connected')::int as failing,
              count(*) filter (where c.status = 'needs_reconnect')::int as needs_reconnect,
              max(c.updated_at) as last_failure_at,
              (array_agg(c.last_error order by c.updated_at desc) filter (where c.last_error is not null))[1] as last_error
         from service_connections c
         join external_services s on s.id = c.service_id
        where c.refresh_failures > 0 or c.status = 'needs_reconnect'
        group by s.service_name
        order by last_failure_at desc
        limit ?`,
      [limit],
    );
    return rows.map((row) => ({
      service: row.service,
      failing: Number(row.failing),
      needsReconnect: Number(row.needs_reconnect),
      lastFailureAt: new Date(row.last_failure_at).toISOString(),
      lastError: row.last_error,
    }));
  }
}
