import { Inject, Injectable } from '@nestjs/common';
import type { WorkerHeartbeat } from '@life/contracts';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { workersKeyPrefix, type WorkerBeat } from '../../core/queue/worker-heartbeat.service.js';
import { REDIS } from '../../core/redis/redis.module.js';

/** More would not help anyone reading the list; the count stays right up to here. */
const MAX_WORKERS = 500;
const SCAN_BATCH = 1000;

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
 * Reads the heartbeats WorkerHeartbeatService writes. SCAN rather than KEYS: it never blocks
 * Redis, however many keys the other prefixes hold.
 */
@Injectable()
export class WorkerHeartbeats {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = workersKeyPrefix(config.queuePrefix);
  }

  async keys(): Promise<string[]> {
    const found = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', SCAN_BATCH);
      for (const key of batch) found.add(key);
      cursor = next;
    } while (cursor !== '0' && found.size < MAX_WORKERS);
    return [...found].slice(0, MAX_WORKERS);
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
      // Expired between SCAN and GET: that worker has stopped.
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
