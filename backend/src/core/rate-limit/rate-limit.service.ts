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

  /** Counts one request for `key` and answers the points left; throws RateLimitError (429 + Retry-After) past the limit. */
  async consume(key: string): Promise<number> {
    try {
      return (await this.limiter.consume(hashKey(key))).remainingPoints;
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

/**
 * A RateLimit whose "not over the limit" answers are remembered in the process for `trustMs`
 * (and "over the limit" ones until the window ends), so that check() costs no Redis round trip
 * for a key asked about often: a key that goes over its limit in another process is refused here
 * within `trustMs`; one this process counts over its limit, at once.
 */
export class RememberedRateLimit {
  private readonly known = new Map<string, { blockedUntil: number; clearUntil: number }>();

  constructor(
    readonly limit: RateLimit,
    private readonly trustMs = 1000,
  ) {}

  check(key: string): Promise<void> | void {
    const now = Date.now();
    const known = this.known.get(key);
    if (known && known.blockedUntil > now) throw new RateLimitError(retryAfterSeconds(known.blockedUntil - now));
    if (known && known.clearUntil > now) return;
    return this.limit.check(key).then(
      () => this.remember(key, { blockedUntil: 0, clearUntil: now + this.trustMs }),
      (error: unknown) => {
        if (error instanceof RateLimitError) this.remember(key, { blockedUntil: now + error.retryAfterSeconds * 1000, clearUntil: 0 });
        throw error;
      },
    );
  }

  /** Counts one request (e.g. a failure); when that uses up the key's points, this process refuses it from now on. */
  async consume(key: string): Promise<void> {
    try {
      const left = await this.limit.consume(key);
      if (left <= 0) this.known.delete(key);
    } catch (error) {
      if (error instanceof RateLimitError) this.remember(key, { blockedUntil: Date.now() + error.retryAfterSeconds * 1000, clearUntil: 0 });
      throw error;
    }
  }

  private remember(key: string, state: { blockedUntil: number; clearUntil: number }): void {
    if (this.known.size >= MAX_REMEMBERED_KEYS) this.prune();
    this.known.set(key, state);
  }

  private prune(): void {
    const now = Date.now();
    for (const [key, state] of this.known) if (state.blockedUntil <= now && state.clearUntil <= now) this.known.delete(key);
    if (this.known.size >= MAX_REMEMBERED_KEYS) this.known.clear();
  }
}

const MAX_REMEMBERED_KEYS = 50_000;

/**
 * INCRBY the window's counter by a lease, starting the window (PEXPIRE) when it is new; answers
 * the new total and the window's milliseconds left.
 */
const LEASE_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return { total, ttl }`;

interface Lease {
  left: number;
  windowEnds: number;
  /** The window's points are all leased out: refuse until it ends. */
  spent: boolean;
}

/**
 * A fixed-window limit shared by every process like RateLimit, but counted in the process:
 * each process takes the key's points from the shared Redis counter a lease at a time (INCRBY
 * `chunk`, a hundredth of the limit) and spends them locally, so most requests cost no Redis
 * round trip at all. Across processes the total allowed per window never exceeds `points`; a
 * process may be refused while another still holds points it leased (at most `chunk` each). With
 * a small limit the chunk is 1: one round trip per request, exactly like RateLimit. While Redis
 * does not answer, an in-process counter with the same rule takes over (as RateLimit does).
 */
export class LeasedRateLimit {
  private readonly leases = new Map<string, Lease>();
  private readonly renewing = new Map<string, Promise<void>>();
  private readonly chunk: number;
  private readonly fallback: RateLimiterMemory;

  constructor(
    readonly rule: RateLimitRule,
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {
    this.chunk = Math.max(1, Math.floor(rule.points / 100));
    this.fallback = new RateLimiterMemory({ points: rule.points, duration: rule.durationSeconds, keyPrefix: `memory:lease:${rule.name}` });
  }

  /** Counts one request for `key`; throws RateLimitError (429 + Retry-After) past the limit. */
  consume(key: string): Promise<void> | void {
    const hashed = hashKey(key);
    const now = Date.now();
    const lease = this.leases.get(hashed);
    if (lease && lease.windowEnds > now) {
      if (lease.left > 0) {
        lease.left--;
        return;
      }
      if (lease.spent) throw new RateLimitError(retryAfterSeconds(lease.windowEnds - now));
    }
    return this.renewThenConsume(hashed, key);
  }

  private async renewThenConsume(hashed: string, key: string): Promise<void> {
    let pending = this.renewing.get(hashed);
    if (!pending) {
      pending = this.renew(hashed).finally(() => this.renewing.delete(hashed));
      this.renewing.set(hashed, pending);
    }
    const usedFallback = await pending.then(
      () => false,
      () => true,
    );
    if (usedFallback) {
      try {
        await this.fallback.consume(hashed);
        return;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw new RateLimitError(retryAfterSeconds(rejection.msBeforeNext));
        throw rejection;
      }
    }
    await this.consume(key);
  }

  private async renew(hashed: string): Promise<void> {
    // Like RateLimit (rejectIfRedisNotReady): no waiting for a reconnect, the fallback counts.
    if (this.redis.status !== 'ready') throw new Error('Redis is not ready');
    const now = Date.now();
    if (this.leases.size >= MAX_REMEMBERED_KEYS) {
      for (const [key, lease] of this.leases) if (lease.windowEnds <= now) this.leases.delete(key);
    }
    const [total, ttl] = (await this.redis.eval(LEASE_SCRIPT, 1, `${this.keyPrefix}:${hashed}`, this.chunk, this.rule.durationSeconds * 1000)) as [
      number,
      number,
    ];
    const granted = Math.max(0, Math.min(this.chunk, this.rule.points - (total - this.chunk)));
    const current = this.leases.get(hashed);
    const windowEnds = now + ttl;
    // Points left over from the window that just ended are not carried into the new one.
    const carried = current && current.windowEnds > now ? current.left : 0;
    this.leases.set(hashed, { left: carried + granted, windowEnds, spent: granted === 0 });
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

  /** A limit counted in the process against leases of the shared counter (see LeasedRateLimit). */
  createLeased(rule: RateLimitRule): LeasedRateLimit {
    return new LeasedRateLimit(rule, this.redis, `${this.config.queuePrefix}:ratelimit:${rule.name}:lease`);
  }

  /** Counts one request against each (limit, key) pair in order; the first one over its limit throws. */
  static async consumeAll(checks: readonly (readonly [RateLimit, string])[]): Promise<void> {
    for (const [limit, key] of checks) await limit.consume(key);
  }
}
