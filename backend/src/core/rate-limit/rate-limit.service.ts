import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../redis/redis.module.js';
import { RateLimitError } from './rate-limit.errors.js';

export interface RateLimitRule {
  /** Names the counter in Redis, e.g. `contact:ip`. Two rules with one name share counters. */
  name: string;
  /** Requests allowed per window. */
  points: number;
  durationSeconds: number;
}

/** Whole seconds until the next request is allowed (never 0, so clients do wait). */
export const retryAfterSeconds = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 1000));

/** A fixed-window counter per key, shared by every process through Redis. */
export class RateLimit {
  constructor(
    readonly rule: RateLimitRule,
    private readonly limiter: RateLimiterRedis,
  ) {}

  /** Counts one request for `key`; throws RateLimitError (429 + Retry-After) past the limit. */
  async consume(key: string): Promise<void> {
    try {
      await this.limiter.consume(hashKey(key));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw new RateLimitError(retryAfterSeconds(rejection.msBeforeNext));
      throw rejection;
    }
  }

  /** Throws RateLimitError when `key` has used up its points, without counting a request. */
  async check(key: string): Promise<void> {
    const state = await this.limiter.get(hashKey(key));
    if (state && state.consumedPoints >= this.rule.points) {
      throw new RateLimitError(retryAfterSeconds(state.msBeforeNext));
    }
  }

  /** Forgets `key`'s count (e.g. after a successful sign-in). */
  async reset(key: string): Promise<void> {
    await this.limiter.delete(hashKey(key));
  }
}

/** Keys may be e-mails or IPs: Redis only sees their SHA-256. */
const hashKey = (key: string) => createHash('sha256').update(key).digest('base64url');

/**
 * Makes Redis-backed rate limits (rate-limiter-flexible on the shared ioredis client). While
 * Redis does not answer, each process falls back to an in-memory counter with the same rule
 * (the library's insurance limiter): limits stay on, per process, instead of failing requests.
 */
@Injectable()
export class RateLimitService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  create(rule: RateLimitRule): RateLimit {
    const options = { points: rule.points, duration: rule.durationSeconds };
    const limiter = new RateLimiterRedis({
      ...options,
      storeClient: this.redis,
      keyPrefix: `${this.config.queuePrefix}:ratelimit:${rule.name}`,
      // Fall back at once when the connection is down instead of waiting for a reconnect.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ ...options, keyPrefix: `memory:${rule.name}` }),
    });
    return new RateLimit(rule, limiter);
  }

  /** Counts one request against each (limit, key) pair in order; the first one over its limit throws. */
  static async consumeAll(checks: readonly (readonly [RateLimit, string])[]): Promise<void> {
    for (const [limit, key] of checks) await limit.consume(key);
  }
}
