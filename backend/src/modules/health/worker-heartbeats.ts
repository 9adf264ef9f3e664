import { Inject, Injectable } from '@nestjs/common';
import type { WorkerHeartbeat } from '@life/contracts';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { workersIndexKey, workersKeyPrefix, type WorkerBeat } from '../../core/queue/worker-heartbeat.service.js';
import { REDIS } from '../../core/redis/redis.module.js';

/** More would not help anyone reading the list; the count stays right beyond it. */
const MAX_WORKERS = 500;

function parseBeat(value: string | null): Partial<WorkerBeat> {
  if (!value) return {};
  try {
    const parsed = JSON.parse(value) as Partial<WorkerBeat> | null;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Reads the heartbeats WorkerHeartbeatService writes: the index (a sorted set by expiry time)
 * says which workers are live in one command, their keys say when each last beat.
 */
@Injectable()
export class WorkerHeartbeats {
  private readonly prefix: string;
  private readonly index: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = workersKeyPrefix(config.queuePrefix);
    this.index = workersIndexKey(config.queuePrefix);
  }

  /** How many workers beat within their heartbeat's lifetime: one ZCOUNT. */
  count(): Promise<number> {
    return this.redis.zcount(this.index, Date.now(), '+inf');
  }

  private async keys(): Promise<string[]> {
    const ids = await this.redis.zrangebyscore(this.index, Date.now(), '+inf', 'LIMIT', 0, MAX_WORKERS);
    return ids.map((id) => `${this.prefix}${id}`);
  }

  /** The live workers, sorted by id (`host:pid`). */
  async list(): Promise<WorkerHeartbeat[]> {
    const keys = (await this.keys()).sort();
    if (keys.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.get(key).ttl(key);
    const replies = (await pipeline.exec()) ?? [];
    const workers: WorkerHeartbeat[] = [];
    keys.forEach((key, index) => {
      const [valueError, value] = replies[index * 2] ?? [];
      const [, ttl] = replies[index * 2 + 1] ?? [];
      // Expired between the index and GET: that worker has stopped.
      if (valueError || value === null || value === undefined) return;
      const id = key.slice(this.prefix.length);
      const beat = parseBeat(value as string);
      workers.push({
        id,
        host: typeof beat.host === 'string' ? beat.host : id.slice(0, id.lastIndexOf(':')),
        pid: typeof beat.pid === 'number' ? beat.pid : null,
        lastBeatAt: typeof beat.at === 'string' ? beat.at : null,
        expiresInSeconds: typeof ttl === 'number' && ttl >= 0 ? ttl : null,
      });
    });
    return workers;
  }
}
