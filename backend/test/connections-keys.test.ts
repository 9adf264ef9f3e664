import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MikroORM } from '@mikro-orm/postgresql';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { pollUntil } from '@life/test-support';
import { followAuthorize, startServiceStandIns, type ServiceStandIn, type ServiceStandIns } from '@life/test-support/standins/services';
import { COMMANDS } from '../src/cli.js';
import { createWebApp, prepareRuntime } from '../src/bootstrap.js';
import { KeyRing } from '../src/core/crypto/key-ring.js';
import { LoginProvider } from '../src/modules/auth/entities/login-provider.entity.js';
import { LoginProvidersService } from '../src/modules/auth/login-providers.service.js';
import { CatalogService } from '../src/modules/external-services/catalog.service.js';
import { ExternalService } from '../src/modules/external-services/entities/external-service.entity.js';
import { VAULT_QUEUE } from '../src/modules/external-services/jobs/token-refresh.job.js';
import { requestRotation } from '../src/modules/external-services/key-rotation.cli.js';
import { keyUsage, type Execute } from '../src/core/crypto/sealed-columns.js';
import { SEALED_TABLES } from '../src/sealed-columns.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, testEnv, TEST_REDIS_URL, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const OLD = `old1:${randomBytes(32).toString('base64')}`;
const NEW = `new2:${randomBytes(32).toString('base64')}`;
// The longest refresh grace window: a spent refresh token's sealed successor pair outlives the redeploy and the rotation.
const SETTINGS = { TOKEN_REFRESH_SWEEP_MS: '300', TOKEN_REFRESH_CONCURRENCY: '4', OAUTH_REFRESH_GRACE_SECONDS: '60' };
const REDIRECT = 'http://127.0.0.1:7777/callback';
/** A ciphertext of the key ring (`v1.<keyId>.<iv>.<tag>.<ciphertext>`), as a PostgreSQL regular expression. */
const SEALED_SHAPE = '^v1\\.[A-Za-z0-9_-]{1,32}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$';

/** Every sealed value in the database with its associated data, as the code seals it. */
async function sealedValues(t: TestApp): Promise<{ where: string; aad: string; stored: string }[]> {
  const values: { where: string; aad: string; stored: string }[] = [];
  for (const { table, columns, aadColumn } of SEALED_TABLES) {
    for (const { column, aad } of columns) {
      const rows = await t.db.query<{ id: string; bound: string; v: string }>(
        `select id, ${aadColumn ?? 'id'}::text as bound, ${column} as v from ${table} where ${column} is not null`,
      );
      for (const row of rows.rows) values.push({ where: `${table}.${column}:${row.id}`, aad: `${table}:${row.bound}:${aad}`, stored: row.v });
    }
  }
  return values;
}

async function dropAfter(t: TestApp, close: () => Promise<void>): Promise<void> {
  await close();
  await pollUntil(async () => {
    const others = await t.db.query<{ n: string }>(`select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    return Number(others.rows[0]!.n) === 0;
  }, 'the app to close its database connections');
}

describe('connections: key rotation re-seals every secret without downtime (real PostgreSQL + Redis + worker)', () => {
  let stand: ServiceStandIns;
  let t: TestApp;
  /** Views fetched into sealed snapshots when the connections were made ("Tu día"). */
  let daySnapshots = 0;
  /** The same deployment after ENCRYPTION_KEYS became "new,old". */
  let next: NestFastifyApplication | undefined;
  let nextUrl: string;
  let users: SeededUser[];
  let admin: SeededUser;
  let client: Json;
  /** A refresh token spent just before the redeploy, and the pair its refresh answered (sealed for the grace window). */
  let spent: { refreshToken: string; pair: Json };
  const plaintexts = new Map<string, string>();
  const standIn = (family: string) => stand[family as keyof ServiceStandIns] as ServiceStandIn;
  const json = async (response: Response) => (await response.json()) as Json;

  beforeAll(async () => {
    stand = await startServiceStandIns({ families: ['rotating', 'notion', 'bungie', 'google'] });
    t = await startTestApp({ role: 'all', env: { ...SETTINGS, ENCRYPTION_KEYS: OLD } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    users = await seedUsers(t.db, 3);
    const put = (path: string, body: unknown) =>
      t.fetch(path, { method: 'PUT', headers: { ...bearer(admin!.token), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const catalog = (await json(await t.fetch('/api/external-services/all', { headers: bearer(admin!.token) }))) as unknown as Json[];
    for (const [name, row] of Object.entries(stand.rows)) {
      expect((await put(`/api/external-services/${catalog.find((s) => s.service_name === name)!.id}`, row)).status).toBe(200);
    }
    // A login provider's secret lives in another module's table, under the same key ring.
    const providers = (await json(await t.fetch('/api/login-providers', { headers: bearer(admin!.token) }))) as unknown as Json[];
    const github = providers.find((p) => p.service_name === 'github')!;
    expect((await put(`/api/login-providers/${github.id}`, { service_name: 'github', app_id: 'Iv1.login', app_secret: 'login-provider-secret' })).status).toBe(
      200,
    );
    // One person uses their own OAuth app for Fitbit (the stand-in's client, so the flow works).
    const own = await t.fetch('/api/external-services-user', {
      method: 'POST',
      headers: { ...bearer(users[0]!.token), 'content-type': 'application/json' },
      body: JSON.stringify({ service_name: 'fitbit', client_id: standIn('rotating').clientId, client_secret: standIn('rotating').clientSecret }),
    });
    expect(own.status).toBe(200);
    for (const user of users) {
      for (const service of ['fitbit', 'notion', 'destiny2', 'googlecalendar']) {
        const auth = await t.fetch(`/api/external-services/${service}/auth`, { method: 'POST', headers: bearer(user.token) });
        const target = await followAuthorize((await json(auth)).auth_url as string);
        const done = await t.fetch(`/callback/${service}?${target.searchParams}`, { headers: { ...bearer(user.token), accept: 'application/json' } });
        expect([service, done.status]).toEqual([service, 200]);
      }
    }
    const clientSources = await t.db.query<{ client_source: string; n: string }>(
      `select client_source, count(*) as n from service_connections group by 1 order by 1`,
    );
    expect(clientSources.rows.map((r) => [r.client_source, Number(r.n)])).toEqual([
      ['app', 11],
      ['user', 1],
    ]);
    // The authorization server: an app, and an ID token (the first one makes the signing key, its private half sealed).
    const created = await t.fetch('/oauth_clients', {
      method: 'POST',
      headers: { ...bearer(admin!.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Llaves', redirect_uris: [REDIRECT], allowed_scopes: ['openid', 'profile'] }),
    });
    expect(created.status).toBe(201);
    client = await json(created);
    await verifiedIdToken(t.url);
    const oldRing = KeyRing.parse(OLD);
    // Philips Hue's bridge key (decision 0041), sealed as the app seals it when it links a bridge
    // (connections-hue-wow.test links one for real): one connection holds a key, so the column is
    // under the old key like every other.
    const [linked] = (await t.db.query<{ id: string }>(`select id from service_connections order by id limit 1`)).rows;
    await t.db.query(`update service_connections set link_key_encrypted = $1 where id = $2`, [
      oldRing.encrypt('hue-application-key-1', `service_connections:${linked!.id}:link_key`),
      linked!.id,
    ]);
    for (const value of await sealedValues(t)) plaintexts.set(value.where, oldRing.decrypt(value.stored, value.aad));
  });

  /** Consent, code exchange with `openid`, and the ID token verified against the same server's JWKS; answers the token response. */
  async function verifiedIdToken(base: string): Promise<Json> {
    const consent = await json(
      await fetch(`${base}/oauth/authorize`, {
        method: 'POST',
        headers: { ...bearer(users[2]!.token), 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid profile', state: 's', action: 'allow' }),
      }),
    );
    const code = new URL(consent.redirect_to as string).searchParams.get('code')!;
    const response = await tokenRequest(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(response.status).toBe(200);
    const body = await json(response);
    const jwks = await fetch(`${base}/oauth/jwks`);
    expect(jwks.status).toBe(200);
    const { payload } = await jwtVerify(body.id_token as string, createLocalJWKSet((await jwks.json()) as JSONWebKeySet));
    expect(payload.aud).toBe(client.client_id);
    return body;
  }

  function tokenRequest(base: string, form: Record<string, string>): Promise<Response> {
    return fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, client_id: client.client_id, client_secret: client.client_secret }).toString(),
    });
  }

  afterAll(async () => {
    if (next) await dropAfter(t, () => next!.close());
    else if (t) await dropAfter(t, () => t.app.close());
    if (t) {
      const redis = new Redis(TEST_REDIS_URL);
      const keys = await redis.keys(`${t.queuePrefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await t.db.drop();
    }
    await stand?.close();
  });

  it('keys:generate prints a key spec the ring accepts', async () => {
    const printed: string[] = [];
    const [log, error] = [console.log, console.error];
    console.log = (line: string) => void printed.push(line);
    console.error = () => undefined;
    try {
      await COMMANDS['keys:generate']!.run(['k2027']);
    } finally {
      [console.log, console.error] = [log, error];
    }
    expect(printed).toHaveLength(1);
    const ring = KeyRing.parse(printed[0]!);
    expect(ring.primaryId).toBe('k2027');
    expect(ring.decrypt(ring.encrypt('x', 'a'), 'a')).toBe('x');
  });

  it('starts with every secret under the old key', async () => {
    // The connections' "Tu día" views are fetched once right after connecting (the next fetch is minutes away): let them settle.
    await pollUntil(
      async () =>
        Number(
          (await t.db.query<{ n: number }>(`select count(*)::int as n from day_views where enabled and fetched_at is null and problem is null`)).rows[0]!.n,
        ) === 0,
      'the first view fetches',
    );
    daySnapshots = Number((await t.db.query<{ n: number }>(`select count(*)::int as n from day_views where view_sealed is not null`)).rows[0]!.n);
    const values = await sealedValues(t);
    // 5 catalog app secrets + Bungie's API key + 1 own client secret + 1 login provider secret + 12 access + 12 refresh tokens
    // + 1 Hue bridge key + 1 signing key, and the views' snapshots.
    expect(values).toHaveLength(5 + 1 + 1 + 1 + 12 + 12 + 1 + 1 + daySnapshots);
    expect(values.filter((v) => v.where.startsWith('day_views.'))).toHaveLength(daySnapshots);
    expect(values.filter((v) => v.where.startsWith('oauth_signing_keys.'))).toHaveLength(1);
    expect(new Set(values.map((v) => KeyRing.keyIdOf(v.stored)))).toEqual(new Set(['old1']));
  });

  it('every column that holds a key-ring ciphertext, and every entity column named *_encrypted or *_sealed, is in the rotation registry', async () => {
    // A spent refresh token keeps its successor pair sealed for the grace window: make one now.
    const first = await verifiedIdToken(t.url);
    const refreshed = await tokenRequest(t.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string });
    expect(refreshed.status).toBe(200);
    spent = { refreshToken: first.refresh_token as string, pair: await json(refreshed) };
    const registered = new Set(SEALED_TABLES.flatMap(({ table, columns }) => columns.map(({ column }) => `${table}.${column}`)));
    // Every text column of every table, searched for values shaped like a ciphertext.
    const textColumns = await t.db.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and data_type in ('text', 'character varying', 'character') order by 1, 2`,
    );
    const holding: string[] = [];
    for (const { table_name: table, column_name: column } of textColumns.rows) {
      const found = await t.db.query(`select 1 from "${table}" where "${column}" ~ $1 limit 1`, [SEALED_SHAPE]);
      if (found.rows.length > 0) holding.push(`${table}.${column}`);
    }
    // The features above sealed something in every registered column (so the scan sees them all)...
    expect(holding.sort()).toEqual([...registered].sort());
    // ...and no entity declares a sealed-looking column the registry leaves out.
    const declared = [...t.app.get(MikroORM).getMetadata().getAll().values()].flatMap((meta) =>
      Object.values(meta.properties)
        .flatMap((property) => property.fieldNames ?? [])
        .filter((field) => /_(encrypted|sealed)$/.test(field))
        .map((field) => `${meta.tableName}.${field}`),
    );
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.filter((column) => !registered.has(column))).toEqual([]);
  });

  it('keys:rotate re-seals every row under the new key while refreshes run, and everything still decrypts', async () => {
    const successor = (await sealedValues(t)).find((v) => v.where.startsWith('oauth_tokens.'))!;
    plaintexts.set(successor.where, KeyRing.parse(OLD).decrypt(successor.stored, successor.aad));
    // Deploy: the same database and Redis, ENCRYPTION_KEYS = new first, old kept.
    await dropAfter(t, () => t.app.close());
    const runtime = await prepareRuntime('all', testEnv(t.db, t.queuePrefix, { ...SETTINGS, ENCRYPTION_KEYS: `${NEW},${OLD}`, STATIC_DIR: t.staticDir }));
    next = await createWebApp(runtime, 'all');
    await next.listen({ port: 0, host: '127.0.0.1' });
    nextUrl = (await next.getUrl()).replace('[::1]', '127.0.0.1');

    // The old tokens still work under the new deployment (reads decrypt with the old key).
    const cards = (await json(await fetch(`${nextUrl}/api/external-services/all`, { headers: bearer(users[1]!.token) }))) as unknown as Json[];
    expect(
      cards
        .filter((c) => c.connected)
        .map((c) => c.service_name)
        .sort(),
    ).toEqual(['destiny2', 'fitbit', 'googlecalendar', 'notion']);

    // Refreshes happen during the rotation: every Fitbit connection is due now.
    const fitbit = standIn('rotating');
    const refreshesBefore = fitbit.counts.refresh_token;
    await t.db.query(
      `update service_connections c set expires_at = now() + interval '60 seconds', last_refresh_at = now() - interval '1 hour' from external_services s where s.id = c.service_id and s.service_name = 'fitbit'`,
    );
    // The spent refresh token's grace window starts again now, so the sweeper leaves its successor pair to the rotation.
    expect((await t.db.query(`update oauth_tokens set refresh_used_at = now() where successor_sealed is not null`)).rowCount).toBe(1);
    const { result } = await requestRotation({
      redisUrl: TEST_REDIS_URL,
      queuePrefix: t.queuePrefix,
      primaryKeyId: 'new2',
      log: () => undefined,
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({ primaryKeyId: 'new2', failed: 0, busy: 0, stale: 0 });
    // 35 values (the Hue bridge key among them), less those the concurrent Fitbit refreshes re-sealed themselves first.
    expect(result!.reencrypted).toBeGreaterThanOrEqual(35 - 6 + daySnapshots);
    expect(result!.reencrypted).toBeLessThanOrEqual(35 + daySnapshots);
    expect(Object.keys(result!.byTable).sort()).toEqual([
      ...(daySnapshots > 0 ? ['day_views'] : []),
      'external_services',
      'login_providers',
      'oauth_signing_keys',
      'oauth_tokens',
      'service_connections',
      'user_service_credentials',
    ]);

    // No value carries the old key id any more.
    const connection = next.get(MikroORM).em.fork().getConnection();
    const execute: Execute = <T>(sql: string, params: unknown[] = []) => connection.execute(sql, params) as Promise<T>;
    expect(new Set((await keyUsage(execute, SEALED_TABLES)).map((u) => u.keyId))).toEqual(new Set(['new2']));

    // Everything decrypts with the new key alone (the old one can go): secrets unchanged, and
    // connection tokens unchanged unless a refresh replaced them meanwhile.
    await pollUntil(async () => fitbit.counts.refresh_token - refreshesBefore === 3, 'the three Fitbit refreshes');
    const newOnly = KeyRing.parse(NEW);
    const values = await sealedValues(t);
    expect(values).toHaveLength(plaintexts.size);
    const fitbitIds = new Set(
      (
        await t.db.query<{ id: string }>(
          `select c.id from service_connections c join external_services s on s.id = c.service_id where s.service_name = 'fitbit'`,
        )
      ).rows.map((r) => r.id),
    );
    for (const value of values) {
      const plain = newOnly.decrypt(value.stored, value.aad);
      const refreshed = value.where.startsWith('service_connections.') && fitbitIds.has(value.where.split(':')[1]!);
      if (!refreshed) expect([value.where, plain]).toEqual([value.where, plaintexts.get(value.where)]);
    }
    expect(fitbit.counts.failedRefreshes).toBe(0);

    // The modules read them through their own code paths.
    const em = next.get(MikroORM).em.fork();
    const login = await em.findOneOrFail(LoginProvider, { serviceName: 'github' });
    expect(next.get(LoginProvidersService).decryptSecret(login)).toBe('login-provider-secret');
    const notionRow = await em.findOneOrFail(ExternalService, { serviceName: 'notion' });
    expect(next.get(CatalogService).appSecret(notionRow)).toBe(standIn('notion').clientSecret);
    const destinyRow = await em.findOneOrFail(ExternalService, { serviceName: 'destiny2' });
    expect(next.get(CatalogService).apiKey(destinyRow)).toBe(stand.apiKey);
  });

  it('with the old key removed from ENCRYPTION_KEYS and the app restarted, every sealed value still opens (issue 16)', async () => {
    await dropAfter(t, () => next!.close());
    next = undefined;
    const runtime = await prepareRuntime('all', testEnv(t.db, t.queuePrefix, { ...SETTINGS, ENCRYPTION_KEYS: NEW, STATIC_DIR: t.staticDir }));
    next = await createWebApp(runtime, 'all');
    await next.listen({ port: 0, host: '127.0.0.1' });
    nextUrl = (await next.getUrl()).replace('[::1]', '127.0.0.1');
    // The authorization server: the JWKS, an ID token signed with the (re-sealed) key, and the spent refresh
    // token's grace answer (the re-sealed successor pair).
    await verifiedIdToken(nextUrl);
    expect((await t.db.query(`update oauth_tokens set refresh_used_at = now() where successor_sealed is not null`)).rowCount).toBe(1);
    const again = await tokenRequest(nextUrl, { grant_type: 'refresh_token', refresh_token: spent.refreshToken });
    expect(again.status).toBe(200);
    const replayed = await json(again);
    expect([replayed.access_token, replayed.refresh_token]).toEqual([spent.pair.access_token, spent.pair.refresh_token]);
    // The login provider's secret, the catalog's secrets, and the dashboard that reads the connections.
    const em = next.get(MikroORM).em.fork();
    expect(next.get(LoginProvidersService).decryptSecret(await em.findOneOrFail(LoginProvider, { serviceName: 'github' }))).toBe('login-provider-secret');
    expect(next.get(CatalogService).appSecret(await em.findOneOrFail(ExternalService, { serviceName: 'notion' }))).toBe(standIn('notion').clientSecret);
    const cards = (await json(await fetch(`${nextUrl}/api/external-services/all`, { headers: bearer(users[0]!.token) }))) as unknown as Json[];
    expect(cards.filter((c) => c.connected).length).toBe(4);
  });

  it('after the rotation, connections (app and own credentials) still refresh', async () => {
    const counts = {
      notion: standIn('notion').counts.refresh_token,
      bungie: standIn('bungie').counts.refresh_token,
      fitbit: standIn('rotating').counts.refresh_token,
    };
    await t.db.query(`update service_connections set expires_at = now() + interval '60 seconds', last_refresh_at = now() - interval '1 hour'`);
    await pollUntil(async () => {
      const rows = await t.db.query<{ n: string }>(
        `select count(*) as n from service_connections where expires_at > now() + interval '30 minutes' and status = 'connected'`,
      );
      return Number(rows.rows[0]!.n) === 12;
    }, 'all 12 connections refreshed');
    expect(standIn('notion').counts.refresh_token - counts.notion).toBe(3);
    expect(standIn('bungie').counts.refresh_token - counts.bungie).toBe(3);
    expect(standIn('rotating').counts.refresh_token - counts.fitbit).toBe(3);
    for (const family of ['notion', 'bungie', 'rotating', 'google']) expect([family, standIn(family).counts.failedRefreshes]).toEqual([family, 0]);
    const values = await sealedValues(t);
    expect(new Set(values.map((v) => KeyRing.keyIdOf(v.stored)))).toEqual(new Set(['new2']));
  });

  it('a worker whose first key is not the requested one refuses the job (a half-deployed fleet cannot undo a rotation)', async () => {
    const { jobId } = await requestRotation({ redisUrl: TEST_REDIS_URL, queuePrefix: t.queuePrefix, primaryKeyId: 'old1', wait: false, log: () => undefined });
    const queue = new Queue(VAULT_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix: t.queuePrefix });
    try {
      await pollUntil(async () => !!(await Job.fromId(queue, jobId))?.failedReason, 'the refusal');
      expect((await Job.fromId(queue, jobId))!.failedReason).toContain('deploy the new ENCRYPTION_KEYS');
      await (await Job.fromId(queue, jobId))?.remove().catch(() => undefined);
    } finally {
      await queue.close();
    }
    expect(new Set((await sealedValues(t)).map((v) => KeyRing.keyIdOf(v.stored)))).toEqual(new Set(['new2']));
  });
});
