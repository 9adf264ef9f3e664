import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../../core/redis/redis.module.js';

/** Longest a lock can outlive a crashed holder. A refresh is bounded by the 10 s token call. */
export const LOCK_TTL_MS = 30_000;

/** Deletes the key only if it still holds our token: never frees a lock someone else took after ours expired. */
const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface HeldLock {
  key: string;
  token: string;
}

/**
 * One refresh per connection at a time across every process: `SET <prefix>:lock:refresh:<id>
 * <random> NX PX 30000`, released by compare-and-delete. Key rotation takes the same lock before
 * re-sealing a connection's tokens, so the two never overwrite each other.
 */
@Injectable()
export class RefreshLock {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = `${config.queuePrefix}:lock:refresh:`;
  }

  keyFor(connectionId: string): string {
    return `${this.prefix}${connectionId}`;
  }

  async acquire(connectionId: string): Promise<HeldLock | undefined> {
    const lock = { key: this.keyFor(connectionId), token: randomBytes(16).toString('base64url') };
    const taken = await this.redis.set(lock.key, lock.token, 'PX', LOCK_TTL_MS, 'NX');
    return taken === 'OK' ? lock : undefined;
  }

  /** Takes the locks of many connections in one round trip; returns those it got. */
  async acquireMany(connectionIds: string[]): Promise<Map<string, HeldLock>> {
    const held = new Map<string, HeldLock>();
    if (connectionIds.length === 0) return held;
    const locks = connectionIds.map((id) => ({ id, key: this.keyFor(id), token: randomBytes(16).toString('base64url') }));
    const pipeline = this.redis.pipeline();
    for (const lock of locks) pipeline.set(lock.key, lock.token, 'PX', LOCK_TTL_MS, 'NX');
    const results = (await pipeline.exec()) ?? [];
    locks.forEach((lock, index) => {
      if (results[index]?.[1] === 'OK') held.set(lock.id, { key: lock.key, token: lock.token });
    });
    return held;
  }

  async release(lock: HeldLock): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 1, lock.key, lock.token);
  }

  async releaseMany(locks: Iterable<HeldLock>): Promise<void> {
    const pipeline = this.redis.pipeline();
    let any = false;
    for (const lock of locks) {
      pipeline.eval(RELEASE_SCRIPT, 1, lock.key, lock.token);
      any = true;
    }
    if (any) await pipeline.exec();
  }

  async isHeld(connectionId: string): Promise<boolean> {
    return (await this.redis.exists(this.keyFor(connectionId))) === 1;
  }
}
