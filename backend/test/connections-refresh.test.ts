import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { pollUntil } from '@life/test-support';
import { followAuthorize, startServiceStandIns, type ServiceStandIn, type ServiceStandIns } from '@life/test-support/standins/services';
import { createWorkerContext, prepareRuntime } from '../src/bootstrap.js';
import { ServicesError } from '../src/modules/external-services/external-services.errors.js';
import { TOKEN_REFRESH_QUEUE } from '../src/modules/external-services/jobs/token-refresh.job.js';
import { TokenRefreshSweeper } from '../src/modules/external-services/jobs/token-refresh.sweeper.js';
import { TokenAccess } from '../src/modules/external-services/token-access.js';
import { backoffSeconds, TokenRefreshService } from '../src/modules/external-services/token-refresh.service.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, testEnv, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const KEYS = `k1:${randomBytes(32).toString('base64')}`;
const SETTINGS = { ENCRYPTION_KEYS: KEYS, TOKEN_REFRESH_SWEEP_MS: '300', TOKEN_REFRESH_MARGIN_SECONDS: '900', TOKEN_REFRESH_CONCURRENCY: '4' };

describe('connections: background refresh (real PostgreSQL + Redis + two worker processes)', () => {
  let stand: ServiceStandIns;
  let t: TestApp;
  /** A second process, role worker, on the same database, Redis and queue prefix. */
  let worker: INestApplicationContext;
  let admin: SeededUser;
  let queue: Queue;
  const standIn = (family: string) => stand[family as keyof ServiceStandIns] as ServiceStandIn;

  const json = async (response: Response) => (await response.json()) as Json;
  const connect = async (user: SeededUser, service: string): Promise<string> => {
    const auth = await t.fetch(`/api/external-services/${service}/auth`, { method: 'POST', headers: bearer(user.token) });
    const target = await followAuthorize((await json(auth)).auth_url as string);
    const response = await t.fetch(`/callback/${service}?${target.searchParams}`, { headers: { ...bearer(user.token), accept: 'application/json' } });
    expect([service, response.status]).toEqual([service, 200]);
    return connectionOf(user, service).then((row) => row.id as string);
  };
  const connectionOf = async (user: SeededUser, service: string) =>
    (
      await t.db.query<Json>(
        `select c.* from service_connections c join external_services s on s.id = c.service_id where c.user_id = $1 and s.service_name = $2`,
        [user.id, service],
      )
    ).rows[0]!;
  const open = (row: Json, column: 'access_token' | 'refresh_token') =>
    t.runtime.keyRing.decrypt(row[`${column}_encrypted`] as string, `service_connections:${row.id}:${column}`);
  /** As if the access token had been obtained an hour ago and expired in a minute. */
  const makeDue = (ids: string[]) =>
    t.db.query(`update service_connections set expires_at = now() + interval '60 seconds', last_refresh_at = now() - interval '1 hour' where id = any($1)`, [
      ids,
    ]);
  const refreshCalls = (family: string) => standIn(family).counts.refresh_token;
  /** Both processes sweep now, then the queue empties: whatever was due has been attempted. */
  const sweepAndDrain = async () => {
    await t.app.get(TokenRefreshSweeper).sweep();
    await worker.get(TokenRefreshSweeper).sweep();
    await pollUntil(async () => {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).every((n) => n === 0);
    }, 'the token-refresh queue to drain');
  };

  beforeAll(async () => {
    stand = await startServiceStandIns({
      families: ['github', 'google', 'rotating', 'notion', 'bungie', 'battlenet'],
      overrides: { rotating: { latencyMs: 20 } },
    });
    t = await startTestApp({ role: 'all', env: SETTINGS });
    const runtime = await prepareRuntime('worker', testEnv(t.db, t.queuePrefix, SETTINGS));
    worker = await createWorkerContext(runtime);
    queue = t.app.get<Queue>(getQueueToken(TOKEN_REFRESH_QUEUE));
    [admin] = await seedUsers(t.db, 1, 'admin');
    const list = (await json(await t.fetch('/api/external-services/all', { headers: bearer(admin!.token) }))) as unknown as Json[];
    const ids = new Map(list.map((service) => [service.service_name as string, service.id as string]));
    for (const [name, row] of Object.entries(stand.rows)) {
      const response = await t.fetch(`/api/external-services/${ids.get(name)}`, {
        method: 'PUT',
        headers: { ...bearer(admin!.token), 'content-type': 'application/json' },
        body: JSON.stringify(row),
      });
      expect([name, response.status]).toEqual([name, 200]);
    }
  });

  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await stand?.close();
  });

  it('refreshes a token near expiry in the background; an answer without a refresh token keeps the old one', async () => {
    const [user] = await seedUsers(t.db, 1);
    const id = await connect(user!, 'googlecalendar');
    const google = standIn('google');
    const before = await connectionOf(user!, 'googlecalendar');
    const refreshToken = open(before, 'refresh_token');
    expect(google.issued.refreshTokens).toContain(refreshToken);
    const calls = refreshCalls('google');

    await makeDue([id]);
    await pollUntil(
      async () =>
        (await connectionOf(user!, 'googlecalendar')).refresh_failures === 0 &&
        refreshCalls('google') === calls + 1 &&
        open(await connectionOf(user!, 'googlecalendar'), 'access_token') !== open(before, 'access_token'),
      'the refresh',
    );
    const after = await connectionOf(user!, 'googlecalendar');
    expect(open(after, 'access_token')).toBe(google.issued.accessTokens.at(-1));
    // Google's refresh answer carries no refresh token: the old one stays, still sealed.
    expect(open(after, 'refresh_token')).toBe(refreshToken);
    expect(new Date(after.expires_at as string).getTime() - Date.now()).toBeGreaterThan(3500_000);
    expect(after.status).toBe('connected');
    // The refresh spoke the same dialect: client in the body, grant_type=refresh_token, no scope.
    const call = google.tokenCalls.filter((c) => c.grantType === 'refresh_token').at(-1)!;
    expect(call).toMatchObject({ clientAuth: 'body', body: { refresh_token: refreshToken, client_id: google.clientId } });
    expect(call.body.scope).toBeUndefined();

    // No longer due: more sweeps do nothing.
    await sweepAndDrain();
    await sweepAndDrain();
    expect(refreshCalls('google')).toBe(calls + 1);
  });

  it('rotation: every refresh stores the newest refresh token, and the next refresh uses it', async () => {
    const [user] = await seedUsers(t.db, 1);
    const id = await connect(user!, 'fitbit');
    const fitbit = standIn('rotating');
    const first = open(await connectionOf(user!, 'fitbit'), 'refresh_token');
    for (let round = 1; round <= 3; round++) {
      const previous = open(await connectionOf(user!, 'fitbit'), 'refresh_token');
      await makeDue([id]);
      await pollUntil(async () => open(await connectionOf(user!, 'fitbit'), 'refresh_token') !== previous, `refresh round ${round}`);
      const now = await connectionOf(user!, 'fitbit');
      const newest = open(now, 'refresh_token');
      expect(fitbit.refreshTokenAlive(newest)).toBe(true);
      expect(fitbit.refreshTokenAlive(previous)).toBe(false);
      expect(now.status).toBe('connected');
      // Fitbit-style: HTTP Basic on the refresh too.
      expect(fitbit.tokenCalls.filter((c) => c.grantType === 'refresh_token').at(-1)!.clientAuth).toBe('basic');
    }
    expect(fitbit.refreshTokenAlive(first)).toBe(false);
    expect(fitbit.counts.failedRefreshes).toBe(0);
    expect(fitbit.duplicateRefreshes).toBe(0);
  });

  it('two workers never refresh the same connection twice (30 connections due at once)', async () => {
    const fitbit = standIn('rotating');
    const users = await seedUsers(t.db, 30);
    const ids: string[] = [];
    for (const user of users) ids.push(await connect(user, 'fitbit'));
    // Count, per process, the refreshes that actually happened there.
    const tally = (service: TokenRefreshService) => {
      const original = service.refresh.bind(service);
      const counter = { refreshed: 0, restore: () => void (service.refresh = original) };
      service.refresh = async (...args: Parameters<TokenRefreshService['refresh']>) => {
        const outcome = await original(...args);
        if (outcome === 'refreshed') counter.refreshed += 1;
        return outcome;
      };
      return counter;
    };
    const a = tally(t.app.get(TokenRefreshService));
    const b = tally(worker.get(TokenRefreshService));
    try {
      const calls = refreshCalls('rotating');
      const duplicates = fitbit.duplicateRefreshes;
      await makeDue(ids);
      await pollUntil(async () => {
        const rows = await t.db.query<{ n: string }>(
          `select count(*) as n from service_connections where id = any($1) and expires_at > now() + interval '1 hour'`,
          [ids],
        );
        return Number(rows.rows[0]!.n) === ids.length;
      }, 'all 30 refreshed');
      await sweepAndDrain();
      expect(refreshCalls('rotating') - calls).toBe(30);
      expect(fitbit.duplicateRefreshes).toBe(duplicates);
      expect(fitbit.counts.failedRefreshes).toBe(0);
      // Each process did part of the work, and together exactly one refresh per connection.
      expect(a.refreshed + b.refreshed).toBe(30);
      expect(a.refreshed).toBeGreaterThan(0);
      expect(b.refreshed).toBeGreaterThan(0);
      for (const user of users) expect(fitbit.refreshTokenAlive(open(await connectionOf(user, 'fitbit'), 'refresh_token'))).toBe(true);
    } finally {
      a.restore();
      b.restore();
    }
  });

  it('the lock: 20 simultaneous refreshes of one connection from two processes make one call to the provider', async () => {
    const fitbit = standIn('rotating');
    const [user] = await seedUsers(t.db, 1);
    const id = await connect(user!, 'fitbit');
    const calls = refreshCalls('rotating');
    await makeDue([id]);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => [t.app.get(TokenRefreshService).refresh(id), worker.get(TokenRefreshService).refresh(id)]).flat(),
    );
    expect(outcomes.every((o) => ['refreshed', 'locked', 'not_due'].includes(o))).toBe(true);
    await sweepAndDrain();
    expect(refreshCalls('rotating')).toBe(calls + 1);
    expect(fitbit.counts.failedRefreshes).toBe(0);
    expect(fitbit.refreshTokenAlive(open(await connectionOf(user!, 'fitbit'), 'refresh_token'))).toBe(true);
  });

  it('invalid_grant marks the connection "needs reconnect", stops retrying, and a new connection heals it', async () => {
    const notion = standIn('notion');
    const [user] = await seedUsers(t.db, 1);
    const id = await connect(user!, 'notion');
    const calls = refreshCalls('notion');
    notion.failNextRefresh('invalid_grant');
    await makeDue([id]);
    await pollUntil(async () => (await connectionOf(user!, 'notion')).status === 'needs_reconnect', 'needs_reconnect');
    const row = await connectionOf(user!, 'notion');
    expect(row.last_error).toContain('invalid_grant');
    // The durable ConnectionNeedsReconnectEvent (outbox, same transaction) reaches the audit log once.
    const recorded = async () =>
      (await t.db.query<{ details: Json }>(`select details from audit_events where action = 'connection.needs_reconnect' and target_id = $1`, [id])).rows.map(
        (r) => r.details,
      );
    await pollUntil(async () => (await recorded()).length > 0, 'the needs-reconnect audit record');
    // The refresh went out as Notion wants it: Basic, JSON, version header.
    const call = notion.tokenCalls.filter((c) => c.grantType === 'refresh_token').at(-1)!;
    expect(call).toMatchObject({ clientAuth: 'basic', headers: { 'Notion-Version': '2022-06-28' } });
    expect(call.contentType).toContain('application/json');

    const card = ((await json(await t.fetch('/api/external-services/all', { headers: bearer(user!.token) }))) as unknown as Json[]).find(
      (s) => s.service_name === 'notion',
    )!;
    expect([card.connected, card.needs_reconnect]).toEqual([false, true]);
    await sweepAndDrain();
    await sweepAndDrain();
    expect(refreshCalls('notion')).toBe(calls + 1);
    expect(await recorded()).toEqual([{ service: 'notion' }]);
    await expect(t.app.get(TokenAccess).accessTokenFor(user!.id, 'notion')).rejects.toMatchObject({ code: 'needs_reconnect', status: 409 });

    // "Reconectar": the same flow again replaces the tokens and clears the state.
    await connect(user!, 'notion');
    const healed = await connectionOf(user!, 'notion');
    expect([healed.id, healed.status, healed.refresh_failures, healed.last_error]).toEqual([id, 'connected', 0, null]);
    const cardAgain = ((await json(await t.fetch('/api/external-services/all', { headers: bearer(user!.token) }))) as unknown as Json[]).find(
      (s) => s.service_name === 'notion',
    )!;
    expect([cardAgain.connected, cardAgain.needs_reconnect]).toEqual([true, false]);
  });

  it('other failures back off (refresh_not_before, growing) instead of hammering the provider', async () => {
    expect([1, 2, 3, 8, 9, 30].map(backoffSeconds)).toEqual([120, 240, 480, 15_360, 21_600, 21_600]);
    const bungie = standIn('bungie');
    const [user] = await seedUsers(t.db, 1);
    const id = await connect(user!, 'destiny2');
    const calls = refreshCalls('bungie');
    bungie.failNextRefresh(500, 1000);
    try {
      await makeDue([id]);
      await pollUntil(async () => (await connectionOf(user!, 'destiny2')).refresh_failures === 1, 'the first failure');
      const row = await connectionOf(user!, 'destiny2');
      const wait = new Date(row.refresh_not_before as string).getTime() - Date.now();
      expect(wait).toBeGreaterThan(100_000);
      expect(wait).toBeLessThanOrEqual(120_000);
      expect(row.status).toBe('connected');
      expect(row.last_error).toContain('server_error');
      expect(row.last_error).not.toContain(open(row, 'refresh_token'));
      for (let i = 0; i < 3; i++) await sweepAndDrain();
      expect(refreshCalls('bungie')).toBe(calls + 1);
      // The refresh carried the API key, and no scope.
      const call = bungie.tokenCalls.filter((c) => c.grantType === 'refresh_token').at(-1)!;
      expect(call.headers['X-API-Key']).toBe(stand.apiKey);
      expect(call.body.scope).toBeUndefined();

      // The backoff is over and it fails again: the wait doubles.
      await t.db.query(`update service_connections set refresh_not_before = now() - interval '1 second' where id = $1`, [id]);
      await pollUntil(async () => (await connectionOf(user!, 'destiny2')).refresh_failures === 2, 'the second failure');
      const second = new Date((await connectionOf(user!, 'destiny2')).refresh_not_before as string).getTime() - Date.now();
      expect(second).toBeGreaterThan(220_000);
      expect(refreshCalls('bungie')).toBe(calls + 2);
    } finally {
      bungie.clearFailures();
    }
    // The provider recovers: the next try succeeds and clears the failure count.
    await t.db.query(`update service_connections set refresh_not_before = now() - interval '1 second' where id = $1`, [id]);
    await pollUntil(async () => (await connectionOf(user!, 'destiny2')).refresh_failures === 0, 'the recovery');
    const healed = await connectionOf(user!, 'destiny2');
    expect([healed.refresh_not_before, healed.last_error, healed.status]).toEqual([null, null, 'connected']);
    expect(bungie.refreshTokenAlive(open(healed, 'refresh_token'))).toBe(true);
  });

  it('keeps idle refresh tokens alive, and never tries connections without one', async () => {
    const [user] = await seedUsers(t.db, 1);
    const googleId = await connect(user!, 'youtube');
    await connect(user!, 'wow');
    await connect(user!, 'github');
    const calls = { google: refreshCalls('google'), battlenet: refreshCalls('battlenet'), github: refreshCalls('github') };
    // Not expiring soon, but untouched for 31 days.
    await t.db.query(`update service_connections set expires_at = now() + interval '50 minutes', last_refresh_at = now() - interval '31 days' where id = $1`, [
      googleId,
    ]);
    // Battle.net: expired, and nothing to refresh it with.
    await t.db.query(
      `update service_connections c set expires_at = now() - interval '1 minute' from external_services s where s.id = c.service_id and s.service_name = 'wow' and c.user_id = $1`,
      [user!.id],
    );
    await pollUntil(async () => refreshCalls('google') === calls.google + 1, 'the keep-alive refresh');
    await pollUntil(
      async () => new Date((await connectionOf(user!, 'youtube')).last_refresh_at as string).getTime() > Date.now() - 60_000,
      'last_refresh_at moved',
    );
    await sweepAndDrain();
    expect(refreshCalls('google')).toBe(calls.google + 1);
    expect(refreshCalls('battlenet')).toBe(calls.battlenet);
    expect(refreshCalls('github')).toBe(calls.github);
    const access = t.app.get(TokenAccess);
    await expect(access.accessTokenFor(user!.id, 'wow')).rejects.toBeInstanceOf(ServicesError);
    // GitHub's token never expires: it is simply handed out.
    const github = await access.accessTokenFor(user!.id, 'github');
    expect(github).toMatchObject({ accessToken: standIn('github').issued.accessTokens.at(-1), scheme: 'Bearer', expiresAt: null });
  });

  it('refresh on read: a token within the margin is refreshed first (once), otherwise handed out as is', async () => {
    const access = t.app.get(TokenAccess);
    const [user] = await seedUsers(t.db, 1);
    const id = await connect(user!, 'destiny2');
    const bungie = standIn('bungie');
    const calls = refreshCalls('bungie');
    const current = await access.accessTokenFor(user!.id, 'destiny2');
    expect(current.accessToken).toBe(open(await connectionOf(user!, 'destiny2'), 'access_token'));
    expect(current.headers).toEqual({ 'X-API-Key': stand.apiKey });
    expect(refreshCalls('bungie')).toBe(calls);

    await makeDue([id]);
    const [one, two] = await Promise.all([access.accessTokenFor(user!.id, 'destiny2'), worker.get(TokenAccess).accessTokenFor(user!.id, 'destiny2')]);
    expect(one.accessToken).not.toBe(current.accessToken);
    expect(two.accessToken).toBe(one.accessToken);
    expect(one.accessToken).toBe(bungie.issued.accessTokens.at(-1));
    await sweepAndDrain();
    expect(refreshCalls('bungie')).toBe(calls + 1);
    await expect(access.accessTokenFor(user!.id, 'notion')).rejects.toMatchObject({ code: 'not_connected', status: 404 });
  });
});
