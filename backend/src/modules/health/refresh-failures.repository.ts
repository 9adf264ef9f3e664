import { Injectable } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import type { RefreshFailure } from '@life/contracts';

const MAX_SERVICES = 50;

interface Row {
  service: string;
  failing: number;
  needs_reconnect: number;
  last_failure_at: Date | string;
  last_error: string | null;
}

/**
 * Read-only view of the token-refresh outcomes the external-services module stores on each
 * connection (refresh_failures, last_error, status), grouped by service.
 */
@Injectable()
export class RefreshFailuresRepository {
  constructor(private readonly orm: MikroORM) {}

  /** Services with connections whose refresh is failing or gave up, the most recent failure first. */
  async byService(): Promise<RefreshFailure[]> {
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
      [MAX_SERVICES],
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
