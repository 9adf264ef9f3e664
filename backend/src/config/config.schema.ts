import { z } from 'zod';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const emailList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ message: 'ADMIN_EMAILS must be a comma-separated list of e-mails' }))),
);

/**
 * Every setting the app reads from the environment, validated once at boot.
 * `.env.example` documents each one; nothing else in the code reads process.env.
 */
export const ConfigSchema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  APP_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  EMBEDDED_DB_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(0)),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
      .default('redis://127.0.0.1:6379'),
  ),
  /** Unset: derived from the database (config.ts `defaultQueuePrefix`), so two installations on one Redis never share queues. */
  QUEUE_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'QUEUE_PREFIX may only have letters, digits, _ and -')
      .optional(),
  ),
  /**
   * How long a running job's lock lasts without renewal, and how often workers look for jobs whose
   * worker died (their lock expired): those go back to the queue. BullMQ's defaults; tests shorten them.
   */
  QUEUE_LOCK_DURATION_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(500).max(600_000).default(30_000)),
  QUEUE_STALLED_INTERVAL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(200).max(600_000).default(30_000)),
  QUEUE_CLOSE_WAIT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(600_000).default(15_000)),
  /**
   * Stopping (SIGTERM/SIGINT, docs/operations.md "Stopping"): how long a web process keeps serving
   * while its readiness answers 503, so the load balancer stops sending it requests (unset: 10 s
   * with NODE_ENV=production, 0 otherwise), and the deadline from the signal to the exit: a process
   * still closing then exits at once (exit code 1). Keep the grace below the orchestrator's.
   */
  SHUTDOWN_DRAIN_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(300_000).optional()),
  SHUTDOWN_GRACE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(3_600_000).default(25_000)),
  /**
   * How long an idle keep-alive connection stays open. Longer than the load balancer's own idle
   * timeout (ALB 60 s, nginx upstream keepalive_timeout 60 s), so the balancer closes it first and
   * never sends a request on a connection we are closing. Fastify's default, 72 s.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(3_600_000).default(72_000)),
  ADMIN_EMAILS: emailList,
  ENCRYPTION_KEYS: optionalString,
  BETA_MODE: z.preprocess(emptyToUndefined, z.stringbool().default(true)),
  DEV_LOGIN: z.preprocess(emptyToUndefined, z.enum(['auto', 'on', 'off']).default('auto')),
  DEV_LOGIN_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(0)),
  /** Development providers for catalog services without credentials (decision 0020): auto (on in development), on, off. */
  DEV_SERVICES: z.preprocess(emptyToUndefined, z.enum(['auto', 'on', 'off']).default('auto')),
  /** The development Stripe when STRIPE_SECRET_KEY is unset (decision 0020): auto (on in development), on, off. */
  DEV_STRIPE: z.preprocess(emptyToUndefined, z.enum(['auto', 'on', 'off']).default('auto')),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Another Stripe API origin (the tests' stand-in); default Stripe's own. */
  STRIPE_API_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  /**
   * Stripe Tax at checkout (decision 0047): `on` asks Stripe to compute VAT (`automatic_tax`, prices
   * VAT included), requires the billing address and offers a business tax id field; `off` (default) sells without tax.
   */
  STRIPE_TAX: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('off')),
  /** Seats of Élite, Prestige and Legacy (spec: 1000, 9000, 20000). */
  EDITION_LIMITS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+,\d+,\d+$/, 'EDITION_LIMITS must be three whole numbers: elite,prestige,legacy')
      .default('1000,9000,20000')
      .transform((value) => value.split(',').map(Number) as [number, number, number]),
  ),
  CHECKOUT_TTL_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(30).max(1440).default(30)),
  BILLING_SWEEP_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(30_000)),
  /** Tries of one Stripe event before it gives up and shows in Salud as needing attention. */
  STRIPE_EVENT_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(50).default(10)),
  /** First retry delay of a Stripe event (doubling each time: 10 tries from 1 s span about 17 minutes). */
  STRIPE_EVENT_BACKOFF_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(600_000).default(1000)),
  /** How often worker processes look for connections whose access token is about to expire. */
  TOKEN_REFRESH_SWEEP_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(60_000)),
  /** Refresh an access token this long before it expires (also the refresh-on-read margin). */
  TOKEN_REFRESH_MARGIN_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(86_400).default(900)),
  /** Refresh jobs one worker process runs at the same time. */
  TOKEN_REFRESH_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(200).default(20)),
  /** Refresh a connection unused for this many days even if its access token does not expire, so its refresh token stays alive. */
  TOKEN_REFRESH_KEEPALIVE_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(365).default(30)),
  /** "Tu día": how often the sweeper queues the views that are due a fetch. */
  DAY_SYNC_SWEEP_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(30_000)),
  /** View fetches one worker process runs at the same time (they wait on the providers). */
  DAY_SYNC_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(200).default(16)),
  /** A view's snapshot is deleted this many hours after it was fetched unless a newer fetch replaced it. */
  DAY_SNAPSHOT_TTL_HOURS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(72),
  ),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  STATIC_DIR: optionalString,
  /** Origins (scheme://host[:port], comma-separated) allowed to call the API from a browser (CORS): third-party SPAs using our OAuth endpoints. Empty: none. */
  CORS_ORIGINS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim().replace(/\/$/, ''))
          .filter(Boolean),
      )
      .pipe(z.array(z.url({ protocol: /^https?$/, message: 'CORS_ORIGINS must list http(s) origins' }))),
  ),
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.stringbool().default(false)),
  /**
   * Production refuses catalog and login provider URLs on loopback or private addresses (127/8, 10/8,
   * 172.16/12, 192.168/16, 169.254/16, ::1, fc00::/7, fe80::/10, 0.0.0.0, localhost names): true
   * allows them (a provider on the same private network). Outside production they are always allowed.
   */
  ALLOW_PRIVATE_SERVICE_URLS: z.preprocess(emptyToUndefined, z.stringbool().default(false)),
  COMPANY_NAME: z.preprocess(emptyToUndefined, z.string().max(200).default('Ejemplo Vida Digital, S.L. (datos ficticios)')),
  COMPANY_TAX_ID: z.preprocess(emptyToUndefined, z.string().max(50).default('B00000000 (ficticio)')),
  COMPANY_ADDRESS: z.preprocess(emptyToUndefined, z.string().max(300).default('Calle Ficticia 1, 28000 Madrid, España (dirección de ejemplo)')),
  COMPANY_EMAIL: z.preprocess(emptyToUndefined, z.email().default('privacidad@life.example')),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'SMTP_URL must start with smtp:// or smtps://')
      .optional(),
  ),
  CONTACT_TO: z.preprocess(emptyToUndefined, z.email({ message: 'CONTACT_TO must be an e-mail' }).optional()),
  CONTACT_FROM: z.preprocess(emptyToUndefined, z.string().min(3).max(300).default('Life <no-reply@life.example>')),
  CONTACT_RATE_LIMIT_PER_HOUR: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(5)),
  /** Sign-in starts and callbacks per client IP per 10 minutes; more get 429 + Retry-After. */
  SIGN_IN_RATE_LIMIT_PER_10MIN: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(100)),
  /** Token, revocation and introspection requests per client and IP per minute (RFC 9700 §4.10: slow down guessing). */
  OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(120)),
  /** Failed client authentications per IP per 15 minutes before 429. */
  OAUTH_CLIENT_AUTH_FAILURES_PER_15MIN: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(30)),
  /**
   * Seconds after a refresh during which the same client presenting the just-spent refresh token
   * again gets the same new pair back instead of a family revocation (decision 0028); 0 = strict.
   */
  OAUTH_REFRESH_GRACE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(60).default(20)),
  /** Apps one person may register on their profile (decision 0037); 0 turns person-made apps off. */
  DEVELOPER_APPS_PER_PERSON: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(100).default(5)),
  /** Tests only (refused in production): the process kills itself (SIGKILL) right after a refresh rotation committed, before answering. */
  TEST_KILL_AFTER_REFRESH_ROTATION: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('off')),
  /** Proxy calls per app and person per minute. */
  OAUTH_PROXY_RATE_LIMIT_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(60)),
  /** How long a "Descargar mis datos" file can be downloaded before the sweeper deletes it. */
  DATA_EXPORT_TTL_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(720).default(24)),
  /** How often workers delete expired exports and queue again exports and erasures whose jobs were lost. */
  DATA_RIGHTS_SWEEP_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(60_000)),
  CONTACT_RETRY_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(3_600_000).default(30_000)),
  /** How often workers queue again stored contact messages not yet delivered, and how old those must be. */
  CONTACT_SWEEP_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(60_000)),
  /** How often workers relay outbox messages that were stored but not handed to the queue (a crash, Redis away). */
  OUTBOX_SWEEP_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(10_000)),
});

export type RawConfig = z.infer<typeof ConfigSchema>;
