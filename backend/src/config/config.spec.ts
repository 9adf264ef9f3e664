import path from 'node:path';
import { ConfigError, defaultQueuePrefix, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('serves a newcomer with defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.appUrl).toBe('http://127.0.0.1:3000');
    expect(config.env).toBe('development');
    expect(config.company.name).toMatch(/ficticios/);
  });

  it('normalises ADMIN_EMAILS', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' Ana@Example.com, bo@example.org ,' }).adminEmails).toEqual(['ana@example.com', 'bo@example.org']);
  });

  it('lists every invalid setting at once', () => {
    expect(() => loadConfig({ PORT: 'abc', REDIS_URL: 'http://x', ADMIN_EMAILS: 'not-an-email' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc', REDIS_URL: 'http://x', ADMIN_EMAILS: 'not-an-email' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('REDIS_URL');
      expect(message).toContain('ADMIN_EMAILS');
    }
  });

  it('refuses production without keys, public URL and database', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/ENCRYPTION_KEYS, APP_URL, DATABASE_URL must be set/);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });

  it('stops within 25 s; drains for 10 s only in production, where a load balancer is expected (decision 0029)', () => {
    const production = { NODE_ENV: 'production', ENCRYPTION_KEYS: 'k1:x', APP_URL: 'https://life.example', DATABASE_URL: 'postgresql://db/life' };
    expect(loadConfig({}).shutdown).toEqual({ drainMs: 0, graceMs: 25_000 });
    expect(loadConfig(production).shutdown).toEqual({ drainMs: 10_000, graceMs: 25_000 });
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '3000', SHUTDOWN_GRACE_MS: '8000' }).shutdown).toEqual({ drainMs: 3000, graceMs: 8000 });
    expect(loadConfig({}).keepAliveTimeoutMs).toBe(72_000);
    // The drain is part of the grace period: one as long as the other leaves no time to close.
    expect(() => loadConfig({ ...production, SHUTDOWN_GRACE_MS: '10000' })).toThrow(/SHUTDOWN_DRAIN_MS \(10000\) must be below SHUTDOWN_GRACE_MS/);
  });
});

describe('the queue prefix (issue 20: two installations on one Redis)', () => {
  const prefix = (env: NodeJS.ProcessEnv) => loadConfig(env).queuePrefix;

  it('is derived from the database when QUEUE_PREFIX is unset: different databases, different prefixes', () => {
    const one = prefix({ DATABASE_URL: 'postgresql://life:secret@db.example:5432/life' });
    expect(one).toMatch(/^life_[0-9a-f]{10}$/);
    expect(prefix({ DATABASE_URL: 'postgresql://life:secret@db.example:5432/life_staging' })).not.toBe(one);
    expect(prefix({ DATABASE_URL: 'postgresql://life:secret@db.example:5433/life' })).not.toBe(one);
    expect(prefix({ DATABASE_URL: 'postgresql://life:secret@other.example:5432/life' })).not.toBe(one);
    expect(prefix({ DATA_DIR: '/srv/one' })).not.toBe(prefix({ DATA_DIR: '/srv/two' }));
  });

  it('is the same for every process of one installation, whatever its credentials or spelling', () => {
    const one = prefix({ DATABASE_URL: 'postgresql://life:secret@db.example:5432/life' });
    expect(prefix({ DATABASE_URL: 'postgres://worker:other@DB.example/life?sslmode=require' })).toBe(one);
    expect(defaultQueuePrefix('postgresql://life@db.example:5432/life', '/ignored')).toBe(one);
    // The embedded database: its data directory, however it is written.
    expect(prefix({ DATA_DIR: '/srv/one/data' })).toBe(prefix({ DATA_DIR: '/srv/one/./data/' }));
    expect(prefix({})).toBe(defaultQueuePrefix(undefined, path.resolve('./data')));
  });

  it('refuses a DATABASE_URL the URL parser cannot read without printing it (its password would reach the log)', () => {
    let error: unknown;
    try {
      prefix({ DATABASE_URL: 'postgresql://life:s3cr/et#x@db.example:5432/life' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain('percent-encode');
    expect(JSON.stringify(error) + String(error) + String((error as Error).stack)).not.toContain('s3cr');
  });

  it('is the explicit QUEUE_PREFIX when set, and refuses one Redis could not take', () => {
    expect(prefix({ QUEUE_PREFIX: 'shop', DATABASE_URL: 'postgresql://db.example/life' })).toBe('shop');
    expect(() => loadConfig({ QUEUE_PREFIX: 'with space' })).toThrow(/QUEUE_PREFIX/);
  });
});

describe('the development identity provider setting', () => {
  it('is on by default only in development', () => {
    expect(loadConfig({}).devLogin.enabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).devLogin.enabled).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', DEV_LOGIN: 'on' }).devLogin.enabled).toBe(true);
    expect(loadConfig({ DEV_LOGIN: 'off' }).devLogin.enabled).toBe(false);
  });

  it('stops a production boot when forced on', () => {
    const production = { NODE_ENV: 'production', APP_URL: 'https://life.example', DATABASE_URL: 'postgres://db/life', ENCRYPTION_KEYS: 'k1:x' };
    expect(loadConfig({ ...production, DEV_LOGIN: 'auto' }).devLogin.enabled).toBe(false);
    expect(() => loadConfig({ ...production, DEV_LOGIN: 'on' })).toThrow(/DEV_LOGIN=on is refused when NODE_ENV=production/);
  });
});

describe('the development providers and the development Stripe (DEV_SERVICES, DEV_STRIPE)', () => {
  const production = { NODE_ENV: 'production', APP_URL: 'https://life.example', DATABASE_URL: 'postgres://db/life', ENCRYPTION_KEYS: 'k1:x' };

  it('are on by default only in development; the development Stripe only without STRIPE_SECRET_KEY', () => {
    expect(loadConfig({}).devServices.enabled).toBe(true);
    expect(loadConfig({}).devStripe.enabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).devServices.enabled).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).devStripe.enabled).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', DEV_SERVICES: 'on', DEV_STRIPE: 'on' })).toMatchObject({
      devServices: { enabled: true },
      devStripe: { enabled: true },
    });
    expect(loadConfig({ DEV_SERVICES: 'off', DEV_STRIPE: 'off' })).toMatchObject({ devServices: { enabled: false }, devStripe: { enabled: false } });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_live_x' }).devStripe.enabled).toBe(false);
    expect(loadConfig({ DEV_STRIPE: 'on', STRIPE_SECRET_KEY: 'sk_live_x' }).devStripe.enabled).toBe(false);
  });

  it('are off in production with auto, and forcing either on stops the boot', () => {
    expect(loadConfig({ ...production })).toMatchObject({ devServices: { enabled: false }, devStripe: { enabled: false } });
    expect(() => loadConfig({ ...production, DEV_SERVICES: 'on' })).toThrow(/DEV_SERVICES=on is refused when NODE_ENV=production/);
    expect(() => loadConfig({ ...production, DEV_STRIPE: 'on' })).toThrow(/DEV_STRIPE=on is refused when NODE_ENV=production/);
  });
});

describe('refresh-token rotation (decision 0028)', () => {
  it('has a 20 s grace window by default, 0 allowed (strict), at most 60', () => {
    expect(loadConfig({}).oauth.refreshGraceSeconds).toBe(20);
    expect(loadConfig({ OAUTH_REFRESH_GRACE_SECONDS: '0' }).oauth.refreshGraceSeconds).toBe(0);
    expect(() => loadConfig({ OAUTH_REFRESH_GRACE_SECONDS: '61' })).toThrow(/OAUTH_REFRESH_GRACE_SECONDS/);
  });

  it('honours the crash point only under NODE_ENV=test, and refuses it in production', () => {
    expect(loadConfig({ NODE_ENV: 'test', TEST_KILL_AFTER_REFRESH_ROTATION: 'on' }).testHooks.killAfterRefreshRotation).toBe(true);
    expect(loadConfig({ TEST_KILL_AFTER_REFRESH_ROTATION: 'on' }).testHooks.killAfterRefreshRotation).toBe(false);
    const production = { NODE_ENV: 'production', APP_URL: 'https://life.example', DATABASE_URL: 'postgres://db/life', ENCRYPTION_KEYS: 'k1:x' };
    expect(() => loadConfig({ ...production, TEST_KILL_AFTER_REFRESH_ROTATION: 'on' })).toThrow(/TEST_KILL_AFTER_REFRESH_ROTATION=on is refused/);
  });
});

describe('Stripe Tax at checkout (STRIPE_TAX, decision 0047)', () => {
  it('is off by default, on only when asked, and refuses anything else', () => {
    expect(loadConfig({}).stripe.tax).toBe(false);
    expect(loadConfig({ STRIPE_TAX: '' }).stripe.tax).toBe(false);
    expect(loadConfig({ STRIPE_TAX: 'on' }).stripe.tax).toBe(true);
    expect(loadConfig({ STRIPE_TAX: 'off' }).stripe.tax).toBe(false);
    expect(() => loadConfig({ STRIPE_TAX: 'yes' })).toThrow(/STRIPE_TAX/);
  });
});
