import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../redis/redis.module.js';

const INTERVAL_MS = 10_000;
const TTL_SECONDS = 30;

/** Where worker processes announce themselves: one key per process, `${prefix}:workers:${host}:${pid}`. */
export const workersKeyPrefix = (queuePrefix: string) => `${queuePrefix}:workers:`;

/**
 * The same workers in one sorted set, `${prefix}:workers`: member `${host}:${pid}`, score the time
 * (ms) its heartbeat key expires. Counting the live ones is one ZCOUNT, whatever else Redis holds
 * (the health check does it on every probe); a worker that died is dropped by the next beat of any.
 */
export const workersIndexKey = (queuePrefix: string) => `${queuePrefix}:workers`;

/** The value of a heartbeat key. */
export interface WorkerBeat {
  pid: number;
  host: string;
  /** ISO 8601. */
  at: string;
}

/** Each worker process announces itself in Redis; the key expires when it stops beating. */
@Injectable()
export class WorkerHeartbeatService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private timer: NodeJS.Timeout | undefined;
  readonly key: string;
  private readonly id: string;
  private readonly index: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.id = `${hostname()}:${process.pid}`;
    this.key = `${workersKeyPrefix(config.queuePrefix)}${this.id}`;
    this.index = workersIndexKey(config.queuePrefix);
  }

  async beat(): Promise<void> {
    const now = Date.now();
    await this.redis
      .multi()
      .set(this.key, JSON.stringify({ pid: process.pid, host: hostname(), at: new Date(now).toISOString() } satisfies WorkerBeat), 'EX', TTL_SECONDS)
      .zadd(this.index, now + TTL_SECONDS * 1000, this.id)
      .zremrangebyscore(this.index, '-inf', now)
      .exec();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.beat().catch((error: unknown) => this.logger.warn(`Heartbeat failed: ${String(error)}`));
    this.timer = setInterval(() => {
      this.beat().catch((error: unknown) => this.logger.warn(`Heartbeat failed: ${String(error)}`));
    }, INTERVAL_MS);
    this.timer.unref();
    this.logger.log(`Worker ${this.key} started`);
  }

  /** Before the shared Redis client closes (that happens in onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.redis
      .multi()
      .del(this.key)
      .zrem(this.index, this.id)
      .exec()
      .catch(() => undefined);
  }
}
