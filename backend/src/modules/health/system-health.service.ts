import { Inject, Injectable, Logger } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import type { DependencyHealth, SystemHealth } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { within } from '../../core/util/within.js';
import { HealthIndicators } from './health.indicators.js';
import { QueuesService } from './queues.service.js';
import { QueryBus } from '@nestjs/cqrs';
import { RefreshFailuresQuery } from '../external-services/public/queries.js';
import { StripeEventsNeedingAttentionQuery } from '../billing/public/queries.js';
import { WorkerHeartbeats } from './worker-heartbeats.js';

const TIMEOUT_MS = 2000;

function dependency(result: HealthIndicatorResult, key: string): DependencyHealth {
  const entry = result[key] as { status: 'up' | 'down'; latencyMs?: number; message?: string };
  return { status: entry.status, latencyMs: entry.latencyMs ?? null, message: entry.message ?? null };
}

/**
 * The admin's 'Salud del Sistema' report: every part is read at once and each within a bounded
 * time, so one dependency being away shows as such instead of holding the whole answer.
 */
@Injectable()
export class SystemHealthService {
  private readonly logger = new Logger('SystemHealth');

  constructor(
    private readonly indicators: HealthIndicators,
    private readonly queues: QueuesService,
    private readonly workers: WorkerHeartbeats,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async report(): Promise<SystemHealth> {
    const [database, redis, queues, workers, refreshFailures, stripeEvents] = await Promise.all([
      this.indicators.database(),
      this.indicators.redisPing(),
      this.queues.overview(),
      this.orNull('worker heartbeats', () => this.workers.list()),
      this.orNull('token-refresh failures', () => this.queries.execute(new RefreshFailuresQuery())),
      this.orNull('Stripe events needing attention', () => this.queries.execute(new StripeEventsNeedingAttentionQuery())),
    ]);
    const db = dependency(database, 'database');
    const cache = dependency(redis, 'redis');
    return {
      status: db.status === 'up' && cache.status === 'up' ? 'ok' : 'error',
      checkedAt: new Date().toISOString(),
      version: this.config.version,
      uptimeSeconds: Math.round(process.uptime()),
      queuePrefix: this.config.queuePrefix,
      database: db,
      redis: cache,
      queues,
      workers,
      refreshFailures,
      stripeEvents,
    };
  }

  private async orNull<T>(what: string, read: () => Promise<T>): Promise<T | null> {
    try {
      return await within(read(), TIMEOUT_MS);
    } catch (error) {
      this.logger.warn(`Could not read ${what}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }
}
