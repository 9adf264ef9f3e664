import { createHash, randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { pollUntil } from '@life/test-support';
import type { ServiceStandIn } from '@life/test-support/standins/services';
import { KeyRing } from '../core/crypto/key-ring.js';
import { startNodeChild, stopChild, type ManagedChild } from './processes.js';
import type { BenchContext, CustomResult, Scenario } from './scenarios.js';

/**
 * Connections benchmarks: the dashboard's catalog read with 50 connections, and background
 * refresh throughput (10,000 connections due at once, two worker processes, a stand-in
 * provider that answers at once).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const WORKER_JS = path.resolve(here, '..', 'worker.js');

const REFRESH_CONNECTIONS = 10_000;
const REFRESH_WORKERS = 2;
const REFRESH_DEADLINE_MS = 180_000;

const seal = (ring: KeyRing, table: string, id: string, column: string, value: string) => ring.encrypt(value, `${table}:${id}:${column}`);

/** Multi-row INSERT in chunks (pg's limit is 65,535 parameters per statement). */
export async function insertRows(db: pg.Client, table: string, columns: string[], rows: unknown[][], chunk = 1000): Promise<void> {
  for (let start = 0; start < rows.length; start += chunk) {
    const slice = rows.slice(start, start + chunk);
    const placeholders = slice.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
    await db.query(`insert into ${table} (${columns.join(', ')}) values ${placeholders}`, slice.flat());
  }
}

export async function seedUsers(db: pg.Client, count: number, role: 'user' | 'admin' = 'user'): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const tag = randomBytes(3).toString('hex');
  await insertRows(
    db,
    'users',
    ['id', 'created_at', 'updated_at', 'username', 'email', 'email_verified', 'role'],
    ids.map((id, i) => [id, new Date(), new Date(), `b${tag}${i}`, `bench-${tag}-${i}@example.com`, true, role]),
  );
  return ids;
}

/** A live session for `userId`, stored as the app stores it (only the token's SHA-256); returns the bearer token. */
export async function sessionFor(db: pg.Client, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `insert into sessions (id, token_hash, user_id, created_at, last_used_at, expires_at) values (gen_random_uuid(), $1, $2, now(), now(), now() + interval '1 day')`,
    [createHash('sha256').update(token).digest('hex'), userId],
  );
  return token;
}

/** Connections of `userIds[i]` to `serviceIds[i]`, with sealed (fake) tokens as the app stores them. */
export async function seedConnections(
  db: pg.Client,
  ring: KeyRing,
  pairs: { userId: string; serviceId: string }[],
  expiresInSeconds: number,
): Promise<string[]> {
  const now = Date.now();
  const rows = pairs.map(({ userId, serviceId }) => {
    const id = randomUUID();
    return [
      id,
      new Date(now),
      new Date(now),
      userId,
      serviceId,
      'connected',
      seal(ring, 'service_connections', id, 'access_token', `at_bench_${randomBytes(12).toString('base64url')}`),
      seal(ring, 'service_connections', id, 'refresh_token', `rt_bench_${randomBytes(12).toString('base64url')}`),
      new Date(now + expiresInSeconds * 1000),
      new Date(now - 3600_000),
      'app',
      `Bench account ${id.slice(0, 8)}`,
      0,
    ];
  });
  await insertRows(
    db,
    'service_connections',
    [
      'id',
      'created_at',
      'updated_at',
      'user_id',
      'service_id',
      'status',
      'access_token_encrypted',
      'refresh_token_encrypted',
      'expires_at',
      'last_refresh_at',
      'client_source',
      'account_name',
      'refresh_failures',
    ],
    rows,
  );
  return rows.map((row) => row[0] as string);
}

/** GET /api/external-services/all for a person with 50 connections (the dashboard's first call). */
export const servicesAllScenario: Scenario<{ token: string }> = {
  name: 'services-all',
  description: 'GET /api/external-services/all for a signed-in person with 50 connections: session check + catalog (51 rows) + connections (50 rows)',
  async setup(ctx) {
    const ring = KeyRing.parse(ctx.encryptionKeys);
    // The catalog has 13 entries; add bench-only ones so one person can hold 50 connections.
    const existing = (await ctx.db.query<{ id: string }>(`select id from external_services order by service_name`)).rows.map((row) => row.id);
    const extra = Array.from({ length: Math.max(0, 50 - existing.length) }, (_, i) => ({ id: randomUUID(), name: `bench${String(i).padStart(2, '0')}` }));
    await insertRows(
      ctx.db,
      'external_services',
      ['id', 'created_at', 'updated_at', 'service_name', 'service_type', 'status', 'extra_auth_params', 'extra_headers', 'auth_url', 'token_url'],
      extra.map(({ id, name }) => [
        id,
        new Date(),
        new Date(),
        name,
        'bench',
        'active',
        '{}',
        '{}',
        'https://example.com/authorize',
        'https://example.com/token',
      ]),
    );
    const serviceIds = [...existing, ...extra.map(({ id }) => id)].slice(0, 50);
    const [userId] = await seedUsers(ctx.db, 1);
    await seedConnections(
      ctx.db,
      ring,
      serviceIds.map((serviceId) => ({ userId: userId!, serviceId })),
      3600,
    );
    ctx.log(`services-all: one person with ${serviceIds.length} connections`);
    return { token: await sessionFor(ctx.db, userId!) };
  },
  request: (_ctx, state) => ({
    path: '/api/external-services/all',
    headers: { accept: 'application/json', authorization: `Bearer ${state.token}` },
    expectStatus: [200],
  }),
};

interface RefreshState {
  standIn: ServiceStandIn;
  workers: ManagedChild[];
  ids: string[];
}

async function waitForWorkers(ctx: BenchContext, workers: ManagedChild[], count: number, timeoutMs: number): Promise<void> {
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await pollUntil(async () => (await redis.keys(`${ctx.queuePrefix}:workers:*`)).length >= count, `${count} workers to report`, {
      timeoutMs,
      intervalMs: 200,
      failIf: () => {
        const exited = workers.find((worker) => worker.exited());
        return exited && `${exited.name} exited during startup\n${exited.tail()}`;
      },
    });
  } finally {
    redis.disconnect();
  }
}

/**
 * 10,000 connections become due at the same instant; two worker processes (the real
 * `worker.js`, sweeping every 500 ms) refresh them against a stand-in with rotating refresh
 * tokens that answers at once. Measures refreshes stored per second, the delay from "due" to
 * "stored" (p50/p99), and duplicates: a refresh token presented twice (must be 0).
 */
export const refreshScenario: Scenario<RefreshState> = {
  name: 'refresh-10k',
  description: `Background token refresh: ${REFRESH_CONNECTIONS.toLocaleString('en-US')} connections due at once, ${REFRESH_WORKERS} worker processes, a stand-in provider answering at once`,
  timeoutMs: REFRESH_DEADLINE_MS + 120_000,
  async setup(ctx) {
    // The stand-ins (@life/test-support, a dev-only dependency of the bench) load when a scenario needs them.
    const { startServiceStandIn } = await import('@life/test-support/standins/services');
    const standIn = await startServiceStandIn({
      name: 'Bench',
      clientId: `bench-${randomBytes(4).toString('hex')}`,
      clientSecret: randomBytes(24).toString('base64url'),
      tokenAuth: 'basic',
      refresh: 'rotating',
      expiresIn: 3600,
      acceptAnyRefreshToken: true,
      recordCalls: false,
      latencyMs: 0,
    });
    const ring = KeyRing.parse(ctx.encryptionKeys);
    const service = (await ctx.db.query<{ id: string }>(`select id from external_services where service_name = 'fitbit'`)).rows[0]!;
    await ctx.db.query(
      `update external_services set status = 'active', token_url = $1, app_id = $2, app_secret_encrypted = $3, token_auth = 'basic', token_body = 'form' where id = $4`,
      [standIn.tokenUrl, standIn.clientId, seal(ring, 'external_services', service.id, 'app_secret', standIn.clientSecret), service.id],
    );
    const started = Date.now();
    const users = await seedUsers(ctx.db, REFRESH_CONNECTIONS);
    // Not due yet: they expire in two days.
    const ids = await seedConnections(
      ctx.db,
      ring,
      users.map((userId) => ({ userId, serviceId: service.id })),
      2 * 86_400,
    );
    ctx.log(`refresh-10k: seeded ${ids.length} connections in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const workers = Array.from({ length: REFRESH_WORKERS }, (_, i) =>
      startNodeChild(`worker${i + 1}`, WORKER_JS, [], {
        ...process.env,
        NODE_ENV: 'production',
        // The stand-ins listen on loopback: production's private-address refusal (decision 0050) would refuse them.
        ALLOW_PRIVATE_SERVICE_URLS: 'true',
        APP_URL: ctx.appUrl,
        DATABASE_URL: ctx.databaseUrl,
        REDIS_URL: ctx.redisUrl,
        QUEUE_PREFIX: ctx.queuePrefix,
        ENCRYPTION_KEYS: ctx.encryptionKeys,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
        TOKEN_REFRESH_SWEEP_MS: '500',
        BILLING_SWEEP_MS: '3600000',
      }),
    );
    await waitForWorkers(ctx, workers, REFRESH_WORKERS, 60_000);
    ctx.log(`refresh-10k: ${REFRESH_WORKERS} workers ready`);
    return { standIn, workers, ids };
  },
  async run(ctx, state): Promise<CustomResult> {
    const { standIn, ids } = state;
    const before = { ...standIn.counts };
    // Every connection becomes due in the same statement.
    const due = await ctx.db.query<{ t0: Date }>(
      `with u as (update service_connections set expires_at = now() + interval '60 seconds' where id = any($1::uuid[]) returning 1) select now() as t0, (select count(*) from u) as n`,
      [ids],
    );
    const t0 = due.rows[0]!.t0;
    const started = Date.now();
    let stored = 0;
    while (Date.now() - started < REFRESH_DEADLINE_MS) {
      for (const worker of state.workers) if (worker.exited()) throw new Error(`${worker.name} exited during the run\n${worker.tail()}`);
      stored = Number(
        (await ctx.db.query<{ n: string }>(`select count(*) as n from service_connections where id = any($1::uuid[]) and last_refresh_at >= $2`, [ids, t0]))
          .rows[0]!.n,
      );
      if (stored >= ids.length) break;
      await sleep(100);
    }
    const stats = (
      await ctx.db.query<{ p50: number; p99: number; seconds: number }>(
        `select percentile_cont(0.5) within group (order by extract(epoch from last_refresh_at - $2::timestamptz)) * 1000 as p50,
                percentile_cont(0.99) within group (order by extract(epoch from last_refresh_at - $2::timestamptz)) * 1000 as p99,
                extract(epoch from max(last_refresh_at) - $2::timestamptz) as seconds
           from service_connections where id = any($1::uuid[]) and last_refresh_at >= $2`,
        [ids, t0],
      )
    ).rows[0]!;
    // Let any straggling duplicate reach the stand-in before counting.
    await sleep(1000);
    const after = standIn.counts;
    const calls = after.refresh_token - before.refresh_token;
    const duplicates = after.reusedRefreshTokens - before.reusedRefreshTokens;
    const failed = after.failedRefreshes - before.failedRefreshes;
    const seconds = Number(stats.seconds);
    const notes = [
      `${stored.toLocaleString('en-US')} of ${ids.length.toLocaleString('en-US')} connections refreshed in ${seconds.toFixed(1)} s by ${REFRESH_WORKERS} workers; ` +
        `${calls.toLocaleString('en-US')} refresh calls at the provider, duplicate refreshes: ${duplicates}, failed: ${failed}; p50/p99 = delay from "due" to "stored".`,
    ];
    if (stored < ids.length) throw new Error(`only ${stored} of ${ids.length} connections were refreshed within ${REFRESH_DEADLINE_MS / 1000} s`);
    if (duplicates > 0) throw new Error(`${duplicates} duplicate refreshes (a refresh token presented twice)`);
    return {
      opsPerSec: stored / seconds,
      unit: 'refresh/s',
      p50Ms: Number(stats.p50),
      p99Ms: Number(stats.p99),
      errors: failed + duplicates,
      total: stored,
      notes,
    };
  },
  async teardown(_ctx, state) {
    await Promise.all(state.workers.map((worker) => stopChild(worker)));
    await state.standIn.close();
  },
};
