import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { REDIS } from '../../core/redis/redis.module.js';
import { within } from '../../core/util/within.js';
import { WorkerHeartbeats } from './worker-heartbeats.js';

async function timed(check: () => Promise<unknown>, timeoutMs: number): Promise<{ ok: true; latencyMs: number } | { ok: false; message: string }> {
  const started = performance.now();
  try {
    await within(check(), timeoutMs);
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Database and Redis probes with their latency; each answers within a bounded time. */
@Injectable()
export class HealthIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly orm: MikroORM,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly heartbeats: WorkerHeartbeats,
  ) {}

  async database() {
    const indicator = this.indicators.check('database');
    const result = await timed(() => this.orm.em.getConnection().execute('select 1'), 2000);
    return result.ok ? indicator.up({ latencyMs: result.latencyMs }) : indicator.down({ message: 'PostgreSQL did not answer' });
  }

  async redisPing() {
    const indicator = this.indicators.check('redis');
    const result = await timed(() => this.redis.ping(), 2000);
    return result.ok ? indicator.up({ latencyMs: result.latencyMs }) : indicator.down({ message: 'Redis did not answer' });
  }

  /** Informational: worker processes that reported a heartbeat recently (never fails the check). */
  async workers() {
    const indicator = this.indicators.check('workers');
    try {
      return indicator.up({ count: await within(this.heartbeats.count(), 1000) });
    } catch {
      return indicator.up({ count: -1 });
    }
  }
}
