import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ConfigSchema, type RawConfig } from './config.schema.js';

export class ConfigError extends Error {}

/** The validated, typed configuration. Injected with `@Inject(APP_CONFIG)`. */
export interface AppConfig {
  env: RawConfig['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  appUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedDbPort: number;
  redisUrl: string;
  /** Every Redis key and BullMQ queue of this installation starts with it (QUEUE_PREFIX, else derived from the database). */
  queuePrefix: string;
  /**
   * BullMQ worker locks and stalled-job checks (QUEUE_LOCK_DURATION_MS, QUEUE_STALLED_INTERVAL_MS),
   * and how long a worker's close may wait before its Redis connections are ended (QUEUE_CLOSE_WAIT_MS).
   */
  queue: { lockDurationMs: number; stalledIntervalMs: number; closeWaitMs: number };
  /** Stopping: readiness 503 for `drainMs` (web), then close; exit at the latest `graceMs` after the signal. */
  shutdown: { drainMs: number; graceMs: number };
  /** Idle keep-alive connections close after this (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  adminEmails: string[];
  encryptionKeys: string | undefined;
  logLevel: RawConfig['LOG_LEVEL'];
  betaMode: boolean;
  stripe: {
    secretKey?: string;
    webhookSecret?: string;
    apiUrl?: string;
    /** STRIPE_TAX=on: Stripe Tax, billing address and tax ids at checkout (decision 0047). */ tax: boolean;
  };
  billing: { editionLimits: [number, number, number]; checkoutTtlMinutes: number; sweepMs: number; eventAttempts: number; eventBackoffMs: number };
  /** Background refresh of connections' access tokens (the `token-refresh` queue). */
  tokenRefresh: { sweepMs: number; marginSeconds: number; concurrency: number; keepAliveDays: number };
  /** "Tu día" (docs/your-day.md): the sync sweeper's tick, fetches per worker, how long a snapshot is kept. */
  yourDay: { sweepMs: number; concurrency: number; snapshotTtlHours: number };
  /** The built-in development identity provider (never in production). */
  devLogin: { enabled: boolean; port: number };
  /** Development providers for catalog services without credentials, built from the tests' stand-ins (never in production). */
  devServices: { enabled: boolean };
  /** The development Stripe, used when no STRIPE_SECRET_KEY is set (never in production). */
  devStripe: { enabled: boolean };
  staticDir: string;
  trustProxy: boolean;
  /** Catalog and login provider URLs may point at loopback or private addresses: always outside production, with ALLOW_PRIVATE_SERVICE_URLS=true in it. */
  allowPrivateServiceUrls: boolean;
  company: { name: string; taxId: string; address: string; email: string };
  /** Contact page delivery: `smtpUrl` unset means messages are only stored (admins read them in the panel). */
  corsOrigins: string[];
  signInRatePer10Min: number;
  oauth: {
    tokenRatePerMinute: number;
    clientAuthFailuresPer15Min: number;
    proxyRatePerMinute: number;
    refreshGraceSeconds: number;
    developerAppsPerPerson: number;
  };
  /** Switches only tests turn on (NODE_ENV=test): crash points for the process tests. */
  testHooks: { killAfterRefreshRotation: boolean };
  contact: { smtpUrl: string | undefined; to: string; from: string; rateLimitPerHour: number; retryDelayMs: number; sweepMs: number };
  /** Data export and account erasure (docs/data-rights.md). */
  dataRights: { exportTtlHours: number; sweepMs: number };
  /** The transactional outbox (docs/architecture.md). */
  outbox: { sweepMs: number };
  version: string;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

const backendRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function readVersion(): string {
  try {
    const file = path.join(backendRoot, 'dist', 'version.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0-dev';
  }
}

/**
 * The Redis prefix of an installation that sets no QUEUE_PREFIX: `life_` and a short hash of
 * where its data lives, so two installations on one Redis never take each other's jobs, while
 * every process of one installation (web, worker, cli: same DATABASE_URL or same DATA_DIR)
 * derives the same one. With DATABASE_URL: its host (lower case), port (default 5432) and
 * database name (default the user's name, as PostgreSQL does), not the credentials, so
 * rotating a password keeps the queues. Without it: the embedded database's data directory.
 */
export function defaultQueuePrefix(databaseUrl: string | undefined, dataDir: string): string {
  let identity: string;
  if (databaseUrl) {
    let url: URL;
    try {
      url = new URL(databaseUrl);
    } catch {
      // Node's error would carry the whole URL, password included, into the start-up log.
      throw new ConfigError('DATABASE_URL is not a valid URL (percent-encode special characters such as / # ? in the password).');
    }
    const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
    identity = `postgresql://${url.hostname.toLowerCase()}:${url.port || '5432'}/${database}`;
  } else {
    identity = `embedded:${path.resolve(dataDir)}`;
  }
  return `life_${createHash('sha256').update(identity).digest('hex').slice(0, 10)}`;
}

/** Validates the environment once. Throws ConfigError with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every setting.`);
  }
  const raw = parsed.data;
  if (raw.NODE_ENV === 'production') {
    const missing = (['ENCRYPTION_KEYS', 'APP_URL', 'DATABASE_URL'] as const).filter((key) => !raw[key]);
    if (missing.length > 0) {
      throw new ConfigError(`Invalid configuration:\n  - ${missing.join(', ')} must be set when NODE_ENV=production.\nSee .env.example.`);
    }
  }
  if (raw.NODE_ENV === 'production') {
    const refused = [
      raw.DEV_LOGIN === 'on' && 'DEV_LOGIN=on is refused when NODE_ENV=production: the development identity provider lets anyone pick any e-mail.',
      raw.DEV_SERVICES === 'on' && 'DEV_SERVICES=on is refused when NODE_ENV=production: the development providers are local stand-ins, not the real services.',
      raw.DEV_STRIPE === 'on' && 'DEV_STRIPE=on is refused when NODE_ENV=production: the development Stripe takes no real payment.',
      raw.TEST_KILL_AFTER_REFRESH_ROTATION === 'on' &&
        'TEST_KILL_AFTER_REFRESH_ROTATION=on is refused when NODE_ENV=production: it is a crash point for tests.',
    ].filter((line): line is string => typeof line === 'string');
    if (refused.length > 0) throw new ConfigError(`Invalid configuration:\n${refused.map((line) => `  - ${line}`).join('\n')}`);
  }
  const drainMs = raw.SHUTDOWN_DRAIN_MS ?? (raw.NODE_ENV === 'production' ? 10_000 : 0);
  if (drainMs >= raw.SHUTDOWN_GRACE_MS) {
    throw new ConfigError(
      `Invalid configuration:\n  - SHUTDOWN_DRAIN_MS (${drainMs}) must be below SHUTDOWN_GRACE_MS (${raw.SHUTDOWN_GRACE_MS}): the drain is part of the grace period.`,
    );
  }
  return {
    env: raw.NODE_ENV,
    isProduction: raw.NODE_ENV === 'production',
    port: raw.PORT,
    host: raw.HOST,
    appUrl: (raw.APP_URL ?? `http://127.0.0.1:${raw.PORT}`).replace(/\/$/, ''),
    databaseUrl: raw.DATABASE_URL,
    dataDir: path.resolve(raw.DATA_DIR),
    embeddedDbPort: raw.EMBEDDED_DB_PORT,
    redisUrl: raw.REDIS_URL,
    queuePrefix: raw.QUEUE_PREFIX ?? defaultQueuePrefix(raw.DATABASE_URL, raw.DATA_DIR),
    queue: { lockDurationMs: raw.QUEUE_LOCK_DURATION_MS, stalledIntervalMs: raw.QUEUE_STALLED_INTERVAL_MS, closeWaitMs: raw.QUEUE_CLOSE_WAIT_MS },
    shutdown: { drainMs, graceMs: raw.SHUTDOWN_GRACE_MS },
    keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    adminEmails: raw.ADMIN_EMAILS,
    encryptionKeys: raw.ENCRYPTION_KEYS,
    logLevel: raw.LOG_LEVEL,
    betaMode: raw.BETA_MODE,
    stripe: { secretKey: raw.STRIPE_SECRET_KEY, webhookSecret: raw.STRIPE_WEBHOOK_SECRET, apiUrl: raw.STRIPE_API_URL, tax: raw.STRIPE_TAX === 'on' },
    billing: {
      editionLimits: raw.EDITION_LIMITS,
      checkoutTtlMinutes: raw.CHECKOUT_TTL_MINUTES,
      sweepMs: raw.BILLING_SWEEP_MS,
      eventAttempts: raw.STRIPE_EVENT_ATTEMPTS,
      eventBackoffMs: raw.STRIPE_EVENT_BACKOFF_MS,
    },
    tokenRefresh: {
      sweepMs: raw.TOKEN_REFRESH_SWEEP_MS,
      marginSeconds: raw.TOKEN_REFRESH_MARGIN_SECONDS,
      concurrency: raw.TOKEN_REFRESH_CONCURRENCY,
      keepAliveDays: raw.TOKEN_REFRESH_KEEPALIVE_DAYS,
    },
    yourDay: { sweepMs: raw.DAY_SYNC_SWEEP_MS, concurrency: raw.DAY_SYNC_CONCURRENCY, snapshotTtlHours: raw.DAY_SNAPSHOT_TTL_HOURS },
    devLogin: { enabled: raw.DEV_LOGIN === 'on' || (raw.DEV_LOGIN === 'auto' && raw.NODE_ENV === 'development'), port: raw.DEV_LOGIN_PORT },
    devServices: { enabled: raw.DEV_SERVICES === 'on' || (raw.DEV_SERVICES === 'auto' && raw.NODE_ENV === 'development') },
    devStripe: { enabled: !raw.STRIPE_SECRET_KEY && (raw.DEV_STRIPE === 'on' || (raw.DEV_STRIPE === 'auto' && raw.NODE_ENV === 'development')) },
    staticDir: raw.STATIC_DIR ? path.resolve(raw.STATIC_DIR) : path.resolve(backendRoot, '..', 'frontend', 'dist'),
    trustProxy: raw.TRUST_PROXY,
    allowPrivateServiceUrls: raw.NODE_ENV !== 'production' || raw.ALLOW_PRIVATE_SERVICE_URLS,
    company: {
      name: raw.COMPANY_NAME,
      taxId: raw.COMPANY_TAX_ID,
      address: raw.COMPANY_ADDRESS,
      email: raw.COMPANY_EMAIL,
    },
    corsOrigins: raw.CORS_ORIGINS,
    signInRatePer10Min: raw.SIGN_IN_RATE_LIMIT_PER_10MIN,
    oauth: {
      tokenRatePerMinute: raw.OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE,
      clientAuthFailuresPer15Min: raw.OAUTH_CLIENT_AUTH_FAILURES_PER_15MIN,
      proxyRatePerMinute: raw.OAUTH_PROXY_RATE_LIMIT_PER_MINUTE,
      refreshGraceSeconds: raw.OAUTH_REFRESH_GRACE_SECONDS,
      developerAppsPerPerson: raw.DEVELOPER_APPS_PER_PERSON,
    },
    testHooks: { killAfterRefreshRotation: raw.NODE_ENV === 'test' && raw.TEST_KILL_AFTER_REFRESH_ROTATION === 'on' },
    contact: {
      smtpUrl: raw.SMTP_URL,
      to: raw.CONTACT_TO ?? raw.COMPANY_EMAIL,
      from: raw.CONTACT_FROM,
      rateLimitPerHour: raw.CONTACT_RATE_LIMIT_PER_HOUR,
      retryDelayMs: raw.CONTACT_RETRY_DELAY_MS,
      sweepMs: raw.CONTACT_SWEEP_MS,
    },
    dataRights: { exportTtlHours: raw.DATA_EXPORT_TTL_HOURS, sweepMs: raw.DATA_RIGHTS_SWEEP_MS },
    outbox: { sweepMs: raw.OUTBOX_SWEEP_MS },
    version: readVersion(),
  };
}
