import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pollUntil } from '@life/test-support';
import { CATALOG_FAMILY_ROWS, followAuthorize, startServiceStandIns, type ServiceStandIns } from '@life/test-support/standins/services';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const REDIRECT = 'http://127.0.0.1:7777/callback';

/**
 * Issue 19, "Tu día" (docs/your-day.md): workers fetch each connected service's view from its
 * provider (the stand-ins, in the providers' real shapes) into a sealed snapshot; the dashboard,
 * the day's timeline and apps read the snapshots. Real PostgreSQL, Redis and BullMQ workers.
 */
describe('Tu día: views fetched by workers, sealed snapshots, the timeline and the apps API', () => {
  let stand: ServiceStandIns;
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  let other: SeededUser;
  /** A local provider that answers what a test tells it (429, 500, garbage). */
  let broken: http.Server;
  let brokenUrl: string;
  let brokenAnswer: { status: number; headers?: Record<string, string>; body: string } = { status: 500, body: '{}' };
  let brokenCalls = 0;

  const json = async (response: Response) => (await response.json()) as Json;
  const send = (user: SeededUser, path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(user.token), ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const views = async (user: SeededUser, tz = 'Europe/Madrid') =>
    (await json(await send(user, `/api/your-day/views?tz=${encodeURIComponent(tz)}`))).views as Json[];
  const viewOf = async (user: SeededUser, service: string) => (await views(user)).find((view) => view.service === service);
  const catalogId = async (service: string) =>
    ((await json(await send(admin, '/api/external-services/all'))) as unknown as Json[]).find((row) => row.service_name === service)!.id as string;
  const connect = async (user: SeededUser, service: string) => {
    const auth = await send(user, `/api/external-services/${service}/auth`, 'POST');
    expect(auth.status).toBe(200);
    const back = await followAuthorize((await json(auth)).auth_url as string);
    const done = await t.fetch(`/callback/${service}?${back.searchParams}`, { headers: { ...bearer(user.token), accept: 'application/json' } });
    expect(done.status).toBe(200);
  };
  const rows = async (user: SeededUser, service?: string) =>
    (
      await t.db.query<Json>(
        `select * from day_views where user_id = $1 ${service ? 'and service_name = $2' : ''} order by service_name`,
        service ? [user.id, service] : [user.id],
      )
    ).rows;
  /** Makes a view due now: the sweeper (every 300 ms here) queues its fetch. */
  const due = (user: SeededUser, service: string) =>
    t.db.query(`update day_views set next_sync_at = now() - interval '1 second', problem = null where user_id = $1 and service_name = $2`, [user.id, service]);
  const ready = (user: SeededUser, service: string, after?: string) =>
    pollUntil(
      async () => {
        const view = await viewOf(user, service);
        return view?.state === 'ready' && (!after || view.fetched_at > after) ? view : undefined;
      },
      `the ${service} view to be fetched`,
      { timeoutMs: 20_000 },
    );
  const appToken = async (user: SeededUser, scopes: string[]) => {
    const app = await json(
      await send(admin, '/oauth_clients', 'POST', { name: `Day ${scopes.join(' ')}`, redirect_uris: [REDIRECT], allowed_scopes: ['openid', ...scopes] }),
    );
    const consent = await json(
      await send(user, '/oauth/authorize', 'POST', { client_id: app.client_id, redirect_uri: REDIRECT, scope: scopes.join(' '), state: 'st', action: 'allow' }),
    );
    const code = new URL(consent.redirect_to as string).searchParams.get('code')!;
    const tokens = await json(
      await t.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: app.client_id,
          client_secret: app.client_secret,
        }).toString(),
      }),
    );
    return { token: tokens.access_token as string, app };
  };

  beforeAll(async () => {
    broken = http.createServer((request, response) => {
      brokenCalls += 1;
      request.resume();
      response.writeHead(brokenAnswer.status, { 'content-type': 'application/json', ...brokenAnswer.headers });
      response.end(brokenAnswer.body);
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
    stand = await startServiceStandIns({
      families: ['spotify', 'google', 'hue'],
      rowsByFamily: { spotify: CATALOG_FAMILY_ROWS.spotify, google: ['googlecalendar'], hue: CATALOG_FAMILY_ROWS.hue },
    });
    t = await startTestApp({ role: 'all', env: { DAY_SYNC_SWEEP_MS: '300', OUTBOX_SWEEP_MS: '300' } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person, other] = await seedUsers(t.db, 2);
    for (const service of ['spotify', 'googlecalendar', 'philipshue']) {
      expect((await send(admin, `/api/external-services/${await catalogId(service)}`, 'PUT', stand.rows[service])).status).toBe(200);
    }
  });

  afterAll(async () => {
    await t?.close();
    await stand?.close();
    await new Promise((resolve) => broken?.close(resolve));
  });

  it('fetches a view as soon as a service is connected, keeps it sealed, and says how fresh it is', async () => {
    expect(await views(person)).toEqual([]);
    await connect(person, 'spotify');
    const view = await ready(person, 'spotify');
    expect(view).toMatchObject({ service: 'spotify', state: 'ready', problem: null });
    expect(Date.now() - Date.parse(view.fetched_at as string)).toBeLessThan(60_000);
    expect(view.sections.length).toBeGreaterThan(0);
    const titles = (view.sections as Json[]).flatMap((section) => (section.items as Json[]).map((item) => item.title as string));
    expect(titles.length).toBeGreaterThan(0);

    // At rest: a key-ring ciphertext bound to its row, never the titles; with an expiry.
    const [row] = await rows(person, 'spotify');
    expect(row!.view_sealed).toMatch(/^v1\./);
    for (const title of titles) expect(row!.view_sealed).not.toContain(title);
    expect(Date.parse(row!.expires_at as string)).toBeGreaterThan(Date.now());
    expect(Date.parse(row!.next_sync_at as string)).toBeGreaterThan(Date.now());
    // The zone the screen sent is remembered for the workers.
    expect((await t.db.query<Json>('select time_zone from day_people where user_id = $1', [person.id])).rows[0]!.time_zone).toBe('Europe/Madrid');
    // Another person sees nothing of it.
    expect(await views(other)).toEqual([]);
  });

  it('merges today’s items into one timeline in the zone asked, and refuses zones it does not know with a clear 400', async () => {
    await connect(person, 'googlecalendar');
    await ready(person, 'googlecalendar');
    // Compared as PostgreSQL writes them (to the microsecond): a refetch may land within the same second.
    const checkedAt = async () =>
      String(
        (await t.db.query<Json>('select checked_at::text as at from day_views where user_id = $1 and service_name = $2', [person.id, 'spotify'])).rows[0]!.at,
      );
    const before = await checkedAt();
    const today = await json(await send(person, '/api/your-day/today?tz=Asia%2FTokyo'));
    // Another zone (or language) on the person's screens: every view is fetched again for it.
    expect((await t.db.query<Json>('select time_zone from day_people where user_id = $1', [person.id])).rows[0]!.time_zone).toBe('Asia/Tokyo');
    await pollUntil(async () => (await checkedAt()) !== before, 'the views fetched again for the new zone');
    expect(today.time_zone).toBe('Asia/Tokyo');
    expect(today.date).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date()));
    expect((today.services as Json[]).map((s) => s.service).sort()).toEqual(['googlecalendar', 'spotify']);
    const items = today.items as Json[];
    // Time order, all-day items first.
    const timed = items.filter((item) => item.at);
    expect(items.slice(0, items.length - timed.length).every((item) => !item.at)).toBe(true);
    expect(timed.map((item) => Date.parse(item.at as string))).toEqual([...timed.map((item) => Date.parse(item.at as string))].sort((a, b) => a - b));

    // Any spelling the runtime accepts is answered, stored and used by its one name.
    const spelled = await json(await send(person, '/api/your-day/today?tz=eUrOpE%2FmAdRiD'));
    expect(spelled.time_zone).toBe('Europe/Madrid');
    expect((await t.db.query<Json>('select time_zone from day_people where user_id = $1', [person.id])).rows[0]!.time_zone).toBe('Europe/Madrid');

    for (const tz of ['Mars/Olympus', 'Europe/Madríd', 'x'.repeat(65), '../../etc', '%00']) {
      const refused = await send(person, `/api/your-day/today?tz=${encodeURIComponent(tz)}`);
      expect(refused.status).toBe(400);
      const body = await json(refused);
      expect(['invalid_time_zone', 'validation_failed']).toContain(body.error);
      expect(typeof body.message).toBe('string');
    }
  });

  it('switches a view off (snapshot deleted, nothing fetched) and on again (fetched now)', async () => {
    const off = await json(await send(person, '/api/your-day/views/spotify', 'PUT', { enabled: false }));
    expect(off).toMatchObject({ service: 'spotify', state: 'off', sections: [], headline: null });
    const [row] = await rows(person, 'spotify');
    expect(row).toMatchObject({ enabled: false, view_sealed: null, fetched_at: null });
    const refresh = await send(person, '/api/your-day/views/spotify/refresh', 'POST');
    expect(refresh.status).toBe(409);
    expect((await json(refresh)).error).toBe('view_off');
    // A switched-off view is not in the timeline's services.
    expect(((await json(await send(person, '/api/your-day/today'))).services as Json[]).map((s) => s.service)).toEqual(['googlecalendar']);

    const on = await json(await send(person, '/api/your-day/views/spotify', 'PUT', { enabled: true }));
    expect(on.state).toBe('pending');
    await ready(person, 'spotify');

    for (const body of [{ enabled: 'yes' }, { enabled: true, extra: 1 }, {}, '{"enabled":', 'x'.repeat(200_000)]) {
      const bad = await send(person, '/api/your-day/views/spotify', 'PUT', body);
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);
      expect(typeof (await json(bad)).error).toBe('string');
    }
  });

  it('"Actualizar" fetches again through a worker, but not again and again', async () => {
    // A fetch that finished a moment ago: nothing newer to ask the provider for yet.
    await t.db.query(`update day_views set checked_at = now() where user_id = $1 and service_name = 'googlecalendar'`, [person.id]);
    const calls = stand.google!.userCalls.length;
    const early = await send(person, '/api/your-day/views/googlecalendar/refresh', 'POST');
    expect(early.status).toBe(202);
    expect(await json(early)).toEqual({ queued: false });

    // Some minutes later (moved back in the database), it is fetched again.
    await t.db.query(`update day_views set checked_at = now() - interval '20 minutes' where user_id = $1 and service_name = 'googlecalendar'`, [person.id]);
    const before = (await viewOf(person, 'googlecalendar'))!.fetched_at as string;
    const refresh = await send(person, '/api/your-day/views/googlecalendar/refresh', 'POST');
    expect(refresh.status).toBe(202);
    expect(await json(refresh)).toEqual({ queued: true });
    await ready(person, 'googlecalendar', before);
    expect(stand.google!.userCalls.length).toBeGreaterThan(calls);
  });

  it('keeps the last snapshot on screen with a calm problem when the provider is down or asks to wait', async () => {
    const id = await catalogId('googlecalendar');
    const good = (await viewOf(person, 'googlecalendar'))!;
    try {
      // The provider answers 429 with Retry-After: the view keeps its data, says so, and waits that long.
      brokenAnswer = { status: 429, headers: { 'retry-after': '120' }, body: '{"error":{"code":429}}' };
      expect((await send(admin, `/api/external-services/${id}`, 'PUT', { ...stand.rows.googlecalendar, base_url: brokenUrl })).status).toBe(200);
      // The catalog's API targets are cached per process for a second: make it due until the broken one is used.
      const limited = await pollUntil(
        async () => {
          const view = await viewOf(person, 'googlecalendar');
          if (view?.problem === 'rate_limited') return view;
          await due(person, 'googlecalendar');
          return undefined;
        },
        'the rate limit to show',
        { timeoutMs: 20_000, intervalMs: 500, detail: () => `provider calls: ${brokenCalls}` },
      );
      expect(limited).toMatchObject({ state: 'ready', fetched_at: good.fetched_at, sections: good.sections });
      const [row] = await rows(person, 'googlecalendar');
      expect(Date.parse(row!.next_sync_at as string) - Date.now()).toBeGreaterThan(100_000);

      // Down (500, then garbage): still the last data, never a broken answer.
      for (const answer of [
        { status: 500, body: '{}' },
        { status: 200, body: '<html>not json' },
        { status: 200, body: '{"items": "nope", "kind": 7}' },
      ]) {
        brokenAnswer = answer;
        const calls = brokenCalls;
        const checkedBefore = (await viewOf(person, 'googlecalendar'))!.checked_at as string;
        await due(person, 'googlecalendar');
        await pollUntil(() => brokenCalls > calls, 'the broken provider to be asked');
        // The worker's try is over when checked_at moves (a snapshot or a problem).
        const view = await pollUntil(
          async () => {
            const found = await viewOf(person, 'googlecalendar');
            return found && found.checked_at !== checkedBefore ? found : undefined;
          },
          `the try after ${answer.status} ${answer.body}`,
          { detail: () => `provider calls: ${brokenCalls}` },
        );
        if (answer.status === 500 || answer.body.startsWith('<')) {
          // Down, or not JSON: the last data stays, with a calm word of why.
          expect(view).toMatchObject({ state: 'ready', problem: 'provider_down', fetched_at: good.fetched_at, sections: good.sections });
        } else {
          // JSON of the wrong shape: no item survives the checks, and nothing breaks.
          expect(view.state).toBe('ready');
          expect((view.sections as Json[]).flatMap((section) => section.items as Json[])).toEqual([]);
        }
      }

      // Asked to wait again: the person's "Actualizar" waits too, and says for how long.
      brokenAnswer = { status: 429, headers: { 'retry-after': '300' }, body: '{}' };
      await due(person, 'googlecalendar');
      await pollUntil(async () => (await viewOf(person, 'googlecalendar'))?.problem === 'rate_limited', 'the second rate limit');
      // The person's "Actualizar" waits too, and says for how long.
      const refused = await send(person, '/api/your-day/views/googlecalendar/refresh', 'POST');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(200);
      expect((await json(refused)).error).toBe('too_many_requests');
      // Switching the view off and on is no way around it: no fetch is queued, the wait stays.
      await send(person, '/api/your-day/views/googlecalendar', 'PUT', { enabled: false });
      await send(person, '/api/your-day/views/googlecalendar', 'PUT', { enabled: true });
      const [after] = await rows(person, 'googlecalendar');
      expect(after).toMatchObject({ enabled: true, problem: 'rate_limited' });
      expect(Date.parse(after!.next_sync_at as string) - Date.now()).toBeGreaterThan(200_000);
    } finally {
      await send(admin, `/api/external-services/${id}`, 'PUT', stand.rows.googlecalendar);
    }
  });

  it('switches a Hue light at the bridge and answers what the bridge now says', async () => {
    await connect(person, 'philipshue');
    const view = await ready(person, 'philipshue');
    const lights = (view.sections as Json[]).find((section) => section.key === 'lights')!.items as Json[];
    expect(lights.length).toBeGreaterThan(0);
    const light = lights.find((item) => item.on === true) ?? lights[0]!;
    const switched = await send(person, `/api/your-day/views/philipshue/lights/${light.id}`, 'POST', { on: !light.on });
    expect(switched.status).toBe(200);
    const after = ((await json(switched)).sections as Json[]).find((section) => section.key === 'lights')!.items as Json[];
    expect(after.find((item) => item.id === light.id)!.on).toBe(!light.on);
    // The bridge really changed: a fresh fetch says the same.
    await t.db.query(`update day_views set checked_at = now() - interval '20 minutes' where user_id = $1 and service_name = 'philipshue'`, [person.id]);
    const switchedAt = (await viewOf(person, 'philipshue'))!.fetched_at as string;
    expect(await json(await send(person, '/api/your-day/views/philipshue/refresh', 'POST'))).toEqual({ queued: true });
    const again = await ready(person, 'philipshue', switchedAt);
    expect((((again.sections as Json[]).find((s) => s.key === 'lights')!.items as Json[]).find((item) => item.id === light.id) as Json).on).toBe(!light.on);

    // A connection made before the bridge link existed gets linked by the worker's first fetch (in the job's own context).
    await t.db.query(
      `update service_connections set link_key_encrypted = null where user_id = $1 and service_id = (select id from external_services where service_name = 'philipshue')`,
      [person.id],
    );
    const unlinkedAt = (await viewOf(person, 'philipshue'))!.fetched_at as string;
    await due(person, 'philipshue');
    const relinked = await ready(person, 'philipshue', unlinkedAt);
    expect(relinked.problem).toBeNull();

    const unknown = await send(person, '/api/your-day/views/philipshue/lights/no-such-light', 'POST', { on: true });
    expect([404, 502]).toContain(unknown.status);
    expect(typeof (await json(unknown)).message).toBe('string');
    for (const [path, body] of [
      [`/api/your-day/views/philipshue/lights/${light.id}`, { on: 'sí' }],
      [`/api/your-day/views/philipshue/lights/${encodeURIComponent('ñ/..')}`, { on: true }],
      [`/api/your-day/views/philipshue/lights/${'a'.repeat(300)}`, { on: true }],
    ] as const) {
      const bad = await send(person, path, 'POST', body);
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);
    }
    // Someone who has not connected Hue cannot switch anything.
    const stranger = await send(other, `/api/your-day/views/philipshue/lights/${light.id}`, 'POST', { on: true });
    expect(stranger.status).toBe(404);
  });

  it('refuses anonymous callers, unknown services and services not connected', async () => {
    expect((await t.fetch('/api/your-day/views')).status).toBe(401);
    expect((await t.fetch('/api/your-day/today')).status).toBe(401);
    const unknown = await send(person, '/api/your-day/views/nothere', 'PUT', { enabled: false });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toBe('no_view');
    const notConnected = await send(person, '/api/your-day/views/notion/refresh', 'POST');
    expect(notConnected.status).toBe(404);
    expect((await json(notConnected)).error).toBe('not_connected');
  });

  it('gives an app only the services its scopes name, and says so on the consent screen', async () => {
    const { token } = await appToken(person, ['service:spotify']);
    const today = await t.fetch('/api/v1/me/today?tz=Europe%2FMadrid', { headers: bearer(token) });
    expect(today.status).toBe(200);
    const body = await json(today);
    expect((body.services as Json[]).map((s) => s.service)).toEqual(['spotify']);
    expect((body.items as Json[]).every((item) => item.service === 'spotify')).toBe(true);
    // The same person's calendar items are in their own timeline, not in the app's.
    const own = await json(await send(person, '/api/your-day/today?tz=Europe%2FMadrid'));
    expect((own.services as Json[]).map((s) => s.service)).toContain('googlecalendar');

    // An app without any service scope learns nothing (not even the person's zone); a session is not an app token.
    const { token: noServices } = await appToken(person, ['profile']);
    const refused = await t.fetch('/api/v1/me/today', { headers: bearer(noServices) });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toBe('insufficient_scope');
    expect((await t.fetch('/api/v1/me/today', { headers: bearer(person.token) })).status).toBe(401);
    // A service scope for a service without a view is no way in either.
    const { token: otherService } = await appToken(person, ['service:microsoft']);
    expect((await t.fetch('/api/v1/me/today', { headers: bearer(otherService) })).status).toBe(403);
    expect((await t.fetch('/api/v1/me/today?tz=Nowhere%2FLand', { headers: bearer(token) })).status).toBe(400);

    // The consent screen says in plain words what the app will see (an app the person has not answered yet).
    const fresh = await json(
      await send(admin, '/oauth_clients', 'POST', { name: 'Day consent', redirect_uris: [REDIRECT], allowed_scopes: ['openid', 'service:spotify'] }),
    );
    const consent = await json(
      await t.fetch(
        `/oauth/authorize?${new URLSearchParams({ client_id: fresh.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'service:spotify', state: 's' })}`,
        {
          headers: { ...bearer(person.token), accept: 'application/json', 'accept-language': 'es' },
        },
      ),
    );
    const described = JSON.stringify(consent);
    expect(described).toContain('lo que suena ahora y lo último que escuchaste');
  });

  it('puts the snapshots in the data export, and deletes them on disconnect', async () => {
    const started = await json(await send(person, '/api/users/me/export', 'POST'));
    await pollUntil(async () => (await json(await send(person, `/api/users/me/export/${started.id}`))).status === 'ready', 'the export', { timeoutMs: 30_000 });
    const document = await json(await send(person, `/api/users/me/export/${started.id}/download`));
    const exported = document.your_day as Json;
    expect(exported.time_zone).toBe('Europe/Madrid');
    const spotify = (exported.views as Json[]).find((view) => view.service === 'spotify')!;
    expect(spotify.snapshot.sections.length).toBeGreaterThan(0);
    expect(JSON.stringify(document)).not.toMatch(/"view_sealed"|v1\.[A-Za-z0-9_-]+\./);

    const disconnected = await send(person, '/api/external-services/spotify/connection', 'DELETE');
    expect(disconnected.status).toBe(200);
    expect(await rows(person, 'spotify')).toEqual([]);
    expect((await views(person)).map((view) => view.service)).not.toContain('spotify');
  });
});
