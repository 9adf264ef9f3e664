import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { freePort } from '@life/test-support';
import type { AppConfig } from '../src/config/config.js';
import { RateLimitError } from '../src/core/rate-limit/rate-limit.errors.js';
import { RateLimitService, RememberedRateLimit } from '../src/core/rate-limit/rate-limit.service.js';
import { TEST_REDIS_URL } from './helpers/test-app.js';

/** The reusable limiter on the real Redis, and what it does when Redis is away. */

async function rejection(promise: Promise<unknown>): Promise<RateLimitError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RateLimitError) return error;
    throw error;
  }
  throw new Error('Expected a RateLimitError');
}

describe('RateLimitService (real Redis)', () => {
  const prefix = `lifetest${randomBytes(4).toString('hex')}`;
  const redis = new Redis(TEST_REDIS_URL);
  const service = new RateLimitService(redis, { queuePrefix: prefix } as AppConfig);

  beforeAll(async () => {
    // Until the client is connected, the limiter uses its in-memory fallback (see the last test).
    await redis.ping();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('allows `points` requests per key, then answers 429 with Retry-After, per key', async () => {
    const limit = service.create({ name: 'test:window', points: 2, durationSeconds: 60 });
    await limit.consume('203.0.113.1');
    await limit.consume('203.0.113.1');
    const error = await rejection(limit.consume('203.0.113.1'));
    expect(error.status).toBe(429);
    expect(error.code).toBe('too_many_requests');
    expect(Number(error.headers?.['retry-after'])).toBeGreaterThanOrEqual(59);
    expect(Number(error.headers?.['retry-after'])).toBeLessThanOrEqual(60);
    // Another key has its own count.
    await limit.consume('203.0.113.2');
  });

  it('keeps counts in Redis under the prefix, with hashed keys, shared by every instance', async () => {
    const rule = { name: 'test:shared', points: 1, durationSeconds: 60 };
    await service.create(rule).consume('someone@example.com');
    await rejection(new RateLimitService(redis, { queuePrefix: prefix } as AppConfig).create(rule).consume('someone@example.com'));
    const keys = await redis.keys(`${prefix}:ratelimit:test:shared*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain('someone');
  });

  it('reset forgets a key', async () => {
    const limit = service.create({ name: 'test:reset', points: 1, durationSeconds: 60 });
    await limit.consume('k');
    await rejection(limit.consume('k'));
    await limit.reset('k');
    await limit.consume('k');
  });

  it('consumeAll stops at the first limit reached', async () => {
    const perIp = service.create({ name: 'test:all-ip', points: 1, durationSeconds: 60 });
    const perEmail = service.create({ name: 'test:all-email', points: 5, durationSeconds: 60 });
    await RateLimitService.consumeAll([
      [perIp, 'ip'],
      [perEmail, 'mail'],
    ]);
    await rejection(
      RateLimitService.consumeAll([
        [perIp, 'ip'],
        [perEmail, 'mail'],
      ]),
    );
    // The e-mail was not counted the second time: the IP limit stopped the request first.
    const [emailKey] = await redis.keys(`${prefix}:ratelimit:test:all-email:*`);
    expect(await redis.get(emailKey)).toBe('1');
  });

  it('leased limits: two instances together allow exactly `points` per window, counted mostly in the process', async () => {
    const rule = { name: 'test:leased', points: 300, durationSeconds: 60 };
    const one = service.createLeased(rule);
    const two = new RateLimitService(redis, { queuePrefix: prefix } as AppConfig).createLeased(rule);
    let allowed = 0;
    let refused = 0;
    for (let i = 0; i < 340; i++) {
      try {
        await (i % 2 ? one : two).consume('203.0.113.9');
        allowed++;
      } catch (error) {
        expect(error).toBeInstanceOf(RateLimitError);
        expect(Number((error as RateLimitError).headers?.['retry-after'])).toBeGreaterThan(0);
        refused++;
      }
    }
    expect([allowed, refused]).toEqual([300, 40]);
    // Leases of 3 points (a hundredth): Redis saw one INCRBY per lease, not one per request.
    const [key] = await redis.keys(`${prefix}:ratelimit:test:leased:lease:*`);
    expect(Number(await redis.get(key!))).toBeLessThanOrEqual(300 + 2 * 3 + 2 * 3);
    // Another key has its own count.
    await one.consume('203.0.113.10');
  });

  it('a remembered limit refuses a key another instance blocked, once its "clear" answer is older than it trusts', async () => {
    const rule = { name: 'test:remembered', points: 2, durationSeconds: 60 };
    const here = new RememberedRateLimit(service.create(rule), 0);
    const there = new RememberedRateLimit(new RateLimitService(redis, { queuePrefix: prefix } as AppConfig).create(rule));
    await here.check('198.51.100.1');
    await there.consume('198.51.100.1');
    await there.consume('198.51.100.1');
    // The instance that used up the points refuses at once; the other asks Redis (it trusts nothing here: 0 ms).
    expect((await rejection(Promise.resolve().then(() => there.check('198.51.100.1')))).status).toBe(429);
    expect((await rejection(Promise.resolve().then(() => here.check('198.51.100.1')))).status).toBe(429);
  });

  it('falls back to a per-process counter while Redis does not answer: limits stay on', async () => {
    const dead = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    const limit = new RateLimitService(dead, { queuePrefix: prefix } as AppConfig).create({ name: 'test:down', points: 2, durationSeconds: 60 });
    await limit.consume('x');
    await limit.consume('x');
    expect((await rejection(limit.consume('x'))).status).toBe(429);
    const leased = new RateLimitService(dead, { queuePrefix: prefix } as AppConfig).createLeased({ name: 'test:down-leased', points: 2, durationSeconds: 60 });
    await leased.consume('x');
    await leased.consume('x');
    expect((await rejection(Promise.resolve().then(() => leased.consume('x')))).status).toBe(429);
    dead.disconnect();
  });
});

describe('sign-in rate limit (the real app)', () => {
  it('answers 429 with Retry-After past SIGN_IN_RATE_LIMIT_PER_10MIN attempts from one IP, on starts and callbacks alike', async () => {
    const { startTestApp } = await import('./helpers/test-app.js');
    const t = await startTestApp({ role: 'web', env: { SIGN_IN_RATE_LIMIT_PER_10MIN: '3' } });
    try {
      const json = { accept: 'application/json' };
      const first = await t.fetch('/login/github', { headers: json, redirect: 'manual' });
      expect(first.status).not.toBe(429);
      const second = await t.fetch('/login/github/callback?code=x&state=y', { headers: json });
      expect(second.status).not.toBe(429);
      const third = await t.fetch('/login/google', { headers: json, redirect: 'manual' });
      expect(third.status).not.toBe(429);
      const blocked = await t.fetch('/login/github/callback?code=x&state=y', { headers: json });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await blocked.json()) as { error: string }).error).toBe('too_many_requests');
    } finally {
      await t.close();
    }
  });
});
