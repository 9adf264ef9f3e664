import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { PeriodicSweep } from '../../core/queue/periodic-sweep.js';
import type { OAuthServerDb } from './entities/index.js';

const HOUR_MS = 3600 * 1000;

/**
 * Worker side: deletes authorization codes a day after they expired and token rows a week
 * after they can no longer be used (refresh expired, or access expired for tokens without one).
 * Replay and reuse detection only need a row while it could still be presented.
 */
@Injectable()
export class ExpiredTokensSweeper extends PeriodicSweep {
  protected readonly logger = new Logger('ExpiredTokensSweeper');

  constructor(private readonly em: EntityManager) {
    super();
  }

  protected intervalMs(): number {
    return HOUR_MS;
  }

  protected async work(): Promise<number> {
    const db = this.em.getKysely<OAuthServerDb>();
    const codes = await db
      .deleteFrom('oauth_codes')
      .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
      .executeTakeFirst();
    const tokens = await db
      .deleteFrom('oauth_tokens')
      .where((eb) => eb(eb.fn.coalesce('refresh_expires_at', 'access_expires_at'), '<', sql<Date>`now() - interval '7 days'`))
      .executeTakeFirst();
    return Number(codes.numDeletedRows) + Number(tokens.numDeletedRows);
  }

  protected override describe(count: number): string {
    return `Deleted ${count} expired authorization code(s) and token(s)`;
  }
}
