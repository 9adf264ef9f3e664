import { followAuthorize, startServiceStandIns, type ServiceStandIn, type ServiceStandIns } from '@life/test-support/standins/services';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Catalog rows served by the stand-ins, the family behind each, and the name its who-am-I gives. */
const SERVICES = [
  { name: 'github', family: 'github', account: 'octo-connector', refresh: false, expires: false },
  { name: 'googlecalendar', family: 'google', account: 'Gloria Google', refresh: true, expires: true },
  { name: 'youtube', family: 'google', account: 'Gloria Google channel', refresh: true, expires: true },
  { name: 'fitbit', family: 'rotating', account: 'Fiona Fitbit', refresh: true, expires: true },
  { name: 'soundcloud', family: 'soundcloud', account: 'sam-soundcloud', refresh: true, expires: true },
  { name: 'notion', family: 'notion', account: 'Nora Notion', refresh: true, expires: true },
  { name: 'destiny2', family: 'bungie', account: 'Guardian#1234', refresh: true, expires: true },
  { name: 'wow', family: 'battlenet', account: 'Thrall#1111', refresh: false, expires: true },
] as const;

describe('connections: each provider family end to end (real PostgreSQL + Redis, stand-in providers)', () => {
  let stand: ServiceStandIns;
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  const standIn = (family: string) => stand[family as keyof ServiceStandIns] as ServiceStandIn;

  const count = async (table: string) => Number((await t.db.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);
  const json = async (response: Response) => (await response.json()) as Json;
  const list = async (user: SeededUser) => (await json(await t.fetch('/api/external-services/all', { headers: bearer(user.token) }))) as unknown as Json[];

  const startAuth = async (user: SeededUser, service: string) =>
    t.fetch(`/api/external-services/${service}/auth`, { method: 'POST', headers: bearer(user.token) });
  const callback = (user: SeededUser, service: string, query: string) =>
    t.fetch(`/callback/${service}?${query}`, { headers: { ...bearer(user.token), accept: 'application/json' } });
  /** POST …/auth → the stand-in's consent page → its Authorize link → GET /callback/:service as the SPA does. */
  const connect = async (user: SeededUser, service: string) => {
    const auth = await startAuth(user, service);
    expect(auth.status).toBe(200);
    const target = await followAuthorize(((await auth.json()) as Json).auth_url as string);
    return { response: await callback(user, service, target.searchParams.toString()), target };
  };

  beforeAll(async () => {
    stand = await startServiceStandIns();
    t = await startTestApp({ role: 'all' });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
    const ids = new Map((await list(admin!)).map((service) => [service.service_name as string, service.id as string]));
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
    await t?.close();
    await stand?.close();
  });

  it('connects every family over HTTP: connected with the account name on its card, tokens sealed in the database', async () => {
    for (const service of SERVICES) {
      const { response } = await connect(person!, service.name);
      const body = await json(response);
      expect([service.name, response.status, body.connected, body.account_name]).toEqual([service.name, 200, true, service.account]);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    const cards = new Map((await list(person!)).map((card) => [card.service_name as string, card]));
    const adminCards = new Map((await list(admin!)).map((card) => [card.service_name as string, card]));
    for (const service of SERVICES) {
      const card = cards.get(service.name)!;
      expect([service.name, card.connected, card.needs_reconnect, card.account_name]).toEqual([service.name, true, false, service.account]);
      // The app's configuration is the admin's business (decision 0032): the person's card says nothing of it.
      expect([card.app_id, card.app_secret]).toEqual([null, '']);
      expect(adminCards.get(service.name)!.app_secret).toBe('********');
    }

    const rows = await t.db.query<Json>(
      `select s.service_name, c.*, row_to_json(c)::text as everything from service_connections c join external_services s on s.id = c.service_id where c.user_id = $1`,
      [person!.id],
    );
    expect(rows.rows).toHaveLength(SERVICES.length);
    const issued = Object.values(stand)
      .filter((value): value is ServiceStandIn => typeof value === 'object' && value !== null && 'issued' in value)
      .flatMap((s) => [...s.issued.accessTokens, ...s.issued.refreshTokens]);
    expect(issued.length).toBeGreaterThan(SERVICES.length);
    for (const row of rows.rows) {
      const service = SERVICES.find((s) => s.name === row.service_name)!;
      // No token the providers issued appears anywhere in the row, in any form.
      for (const token of issued) expect(row.everything).not.toContain(token);
      expect(row.access_token_encrypted).toMatch(/^v1\.k1\./);
      expect([service.name, row.refresh_token_encrypted !== null]).toEqual([service.name, service.refresh]);
      expect([service.name, row.expires_at !== null]).toEqual([service.name, service.expires]);
      expect(row.status).toBe('connected');
      expect(row.client_source).toBe('app');
    }
    // The secrets of the catalog rows are sealed too.
    const catalog = await t.db.query<Json>(`select row_to_json(s)::text as everything from external_services s`);
    for (const family of ['github', 'google', 'rotating', 'soundcloud', 'notion', 'bungie', 'battlenet']) {
      for (const row of catalog.rows) expect(row.everything).not.toContain(standIn(family).clientSecret);
    }
    for (const row of catalog.rows) expect(row.everything).not.toContain(stand.apiKey);
  });

  it('speaks each provider’s dialect, as configured on its row', () => {
    const codeCall = (family: string) => standIn(family).tokenCalls.find((call) => call.grantType === 'authorization_code')!;
    const authorize = (family: string) => standIn(family).authorizeRequests[0]!.params;

    // GitHub: client in a form body; asks for JSON (GitHub answers form-encoded otherwise); PKCE.
    expect(codeCall('github')).toMatchObject({ clientAuth: 'body', accept: 'application/json' });
    expect(codeCall('github').contentType).toContain('application/x-www-form-urlencoded');
    expect(authorize('github')).toMatchObject({ scope: 'read:user user:email', code_challenge_method: 'S256' });
    expect(codeCall('github').body.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,}$/);

    // Google: offline access with consent (else no refresh token), PKCE, client in the body.
    expect(authorize('google')).toMatchObject({ access_type: 'offline', prompt: 'consent', code_challenge_method: 'S256' });
    expect(codeCall('google').clientAuth).toBe('body');

    // Fitbit: HTTP Basic, and never the secret in the body.
    expect(codeCall('rotating').clientAuth).toBe('basic');
    expect(codeCall('rotating').body.client_secret).toBeUndefined();

    // SoundCloud: PKCE, no scope, `Authorization: OAuth <token>` on API calls.
    expect(authorize('soundcloud').code_challenge).toBeDefined();
    expect(authorize('soundcloud').scope).toBeUndefined();
    expect(standIn('soundcloud').userCalls[0]!.scheme).toBe('OAuth');

    // Notion: Basic + JSON body + Notion-Version on every call, owner=user, no scope.
    expect(codeCall('notion')).toMatchObject({ clientAuth: 'basic', headers: { 'Notion-Version': '2022-06-28' } });
    expect(codeCall('notion').contentType).toContain('application/json');
    expect(authorize('notion')).toMatchObject({ owner: 'user' });
    expect(authorize('notion').scope).toBeUndefined();

    // Bungie: X-API-Key on the token call and the API call, no scope anywhere, no PKCE.
    expect(codeCall('bungie')).toMatchObject({ clientAuth: 'basic', headers: { 'X-API-Key': stand.apiKey } });
    expect(codeCall('bungie').body.scope).toBeUndefined();
    expect(codeCall('bungie').body.code_verifier).toBeUndefined();
    expect(authorize('bungie').scope).toBeUndefined();
    expect(authorize('bungie').code_challenge).toBeUndefined();
    expect(standIn('bungie').userCalls[0]!.headers['X-API-Key']).toBe(stand.apiKey);

    // Battle.net: Basic, with its scopes.
    expect(codeCall('battlenet').clientAuth).toBe('basic');
    expect(authorize('battlenet').scope).toBe('openid wow.profile');

    // Every token call succeeded on the first try.
    for (const family of ['github', 'google', 'rotating', 'soundcloud', 'notion', 'bungie', 'battlenet']) {
      expect([family, standIn(family).tokenCalls.filter((call) => call.error)]).toEqual([family, []]);
    }
  });

  it('disconnects: revokes at the provider where it can, else says where to finish', async () => {
    const expectations: Record<string, { revoked: boolean; family: string; kind?: string }> = {
      github: { revoked: true, family: 'github', kind: 'access' },
      googlecalendar: { revoked: true, family: 'google', kind: 'refresh' },
      fitbit: { revoked: true, family: 'rotating', kind: 'refresh' },
      soundcloud: { revoked: true, family: 'soundcloud', kind: 'access' },
      notion: { revoked: true, family: 'notion', kind: 'access' },
      destiny2: { revoked: false, family: 'bungie' },
      wow: { revoked: false, family: 'battlenet' },
    };
    for (const [name, expected] of Object.entries(expectations)) {
      const before = standIn(expected.family).revocations.length;
      const response = await t.fetch(`/api/external-services/${name}/connection`, { method: 'DELETE', headers: bearer(person!.token) });
      const body = await json(response);
      expect([name, response.status, body.revoked_at_provider]).toEqual([name, 200, expected.revoked]);
      const revocations = standIn(expected.family).revocations.slice(before);
      if (expected.revoked) {
        expect(body.finish_at).toBeNull();
        expect(revocations).toHaveLength(1);
        expect([name, revocations[0]!.kind]).toEqual([name, expected.kind]);
      } else {
        expect(body.finish_at).toBe(stand.rows[name]!.account_url);
        expect(revocations).toHaveLength(0);
      }
    }
    // GitHub's and Fitbit's revocations authenticate the app with Basic; Notion's carries its version header.
    expect(standIn('github').revocations[0]!.clientAuth).toBe('basic');
    expect(standIn('rotating').revocations[0]!.clientAuth).toBe('basic');
    const cards = new Map((await list(person!)).map((card) => [card.service_name as string, card]));
    for (const name of Object.keys(expectations)) expect([name, cards.get(name)!.connected]).toEqual([name, false]);
    expect(cards.get('youtube')!.connected).toBe(true);
    const left = await t.db.query<{ service_name: string }>(
      `select s.service_name from service_connections c join external_services s on s.id = c.service_id where c.user_id = $1`,
      [person!.id],
    );
    expect(left.rows.map((row) => row.service_name)).toEqual(['youtube']);
    const again = await t.fetch('/api/external-services/github/connection', { method: 'DELETE', headers: bearer(person!.token) });
    expect(again.status).toBe(404);
  });

  describe('bad input: a 4xx JSON answer and nothing stored', () => {
    let user: SeededUser;
    let other: SeededUser;
    const snapshot = async () => ({
      connections: await count('service_connections'),
      credentials: await count('user_service_credentials'),
      catalog: (await t.db.query<{ everything: string }>(`select string_agg(row_to_json(s)::text, ',' order by id) as everything from external_services s`))
        .rows[0]!.everything,
    });
    let before: Awaited<ReturnType<typeof snapshot>>;

    beforeAll(async () => {
      [user, other] = await seedUsers(t.db, 2);
      before = await snapshot();
    });

    afterAll(async () => {
      expect(await snapshot()).toEqual(before);
    });

    const expectError = async (response: Response, status: number, error?: string) => {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = await json(response);
      if (error) expect(body.error).toBe(error);
      expect(typeof body.message).toBe('string');
      return body;
    };

    it('unknown service → 404, malformed name → 400, login-type → 400, inactive → 409', async () => {
      await expectError(await startAuth(user, 'myspace'), 404, 'unknown_service');
      await expectError(await startAuth(user, 'no%20such'), 400, 'validation_failed');
      await expectError(await startAuth(user, 'x'.repeat(65)), 400, 'validation_failed');
      await expectError(await startAuth(user, 'githublogin'), 400, 'login_type_service');
      await expectError(await startAuth(user, 'googlefit'), 409, 'service_not_active');
      await expectError(await t.fetch('/api/external-services/myspace/connection', { method: 'DELETE', headers: bearer(user.token) }), 404, 'unknown_service');
      await expectError(await t.fetch('/api/external-services/github/auth', { method: 'POST' }), 401);
    });

    it('a replayed state, someone else’s state, or a made-up one → 400, the provider is not asked, and the rightful person still connects', async () => {
      const auth = await startAuth(user, 'wow');
      const target = await followAuthorize(((await auth.json()) as Json).auth_url as string);
      const battlenet = standIn('battlenet');
      const calls = battlenet.tokenCalls.length;
      // Someone else presenting this person's code and state: refused, and the state is NOT spent.
      await expectError(await callback(other, 'wow', target.searchParams.toString()), 400, 'invalid_state');
      await expectError(await callback(user, 'wow', 'code=abc&state=made-up-state'), 400, 'invalid_state');
      // A state issued for another service.
      const notionAuth = await startAuth(user, 'notion');
      const notionTarget = await followAuthorize(((await notionAuth.json()) as Json).auth_url as string);
      await expectError(await callback(user, 'wow', notionTarget.searchParams.toString()), 400, 'invalid_state');
      expect(battlenet.tokenCalls.length).toBe(calls);
      // The person who started the connection still finishes it, once; a replay afterwards is refused.
      expect((await callback(user, 'wow', target.searchParams.toString())).status).toBe(200);
      await expectError(await callback(user, 'wow', target.searchParams.toString()), 400, 'invalid_state');
      expect(battlenet.tokenCalls.length).toBe(calls + 1);
      await t.fetch('/api/external-services/wow/connection', { method: 'DELETE', headers: bearer(user.token) });
    });

    it('a finished connection cannot be finished again with the same state', async () => {
      const fresh = (await seedUsers(t.db, 1))[0]!;
      const { response, target } = await connect(fresh, 'wow');
      expect(response.status).toBe(200);
      const calls = standIn('battlenet').tokenCalls.length;
      await expectError(await callback(fresh, 'wow', target.searchParams.toString()), 400, 'invalid_state');
      expect(standIn('battlenet').tokenCalls.length).toBe(calls);
      await t.fetch('/api/external-services/wow/connection', { method: 'DELETE', headers: bearer(fresh.token) });
    });

    it('a callback without code or state, or with oversized ones → 400', async () => {
      await expectError(await callback(user, 'wow', 'state=abc'), 400, 'validation_failed');
      await expectError(await callback(user, 'wow', 'code=abc'), 400, 'validation_failed');
      await expectError(await callback(user, 'wow', ''), 400, 'validation_failed');
      await expectError(await callback(user, 'wow', `code=${'c'.repeat(5000)}&state=abc`), 400, 'validation_failed');
      await expectError(await callback(user, 'wow', `code=abc&state=${'s'.repeat(201)}`), 400, 'validation_failed');
      await expectError(await callback(user, 'wow', 'code=&state='), 400, 'validation_failed');
      // The provider said no (error=access_denied, no code).
      await expectError(await callback(user, 'wow', 'error=access_denied&state=abc'), 400, 'validation_failed');
    });

    it('own credentials: oversized, malformed or mistyped fields → 400', async () => {
      const save = (body: unknown, contentType = 'application/json') =>
        t.fetch('/api/external-services-user', {
          method: 'POST',
          headers: { ...bearer(user.token), 'content-type': contentType },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        });
      await expectError(await save({ service_name: 'github', client_id: 'x'.repeat(501), client_secret: 's' }), 400, 'validation_failed');
      await expectError(await save({ service_name: 'github', client_id: 'id', client_secret: 's'.repeat(10_001) }), 400, 'validation_failed');
      await expectError(await save({ service_name: 'bad name!', client_id: 'id', client_secret: 's' }), 400, 'validation_failed');
      await expectError(await save({ service_name: 'github', client_id: 123, client_secret: 's' }), 400, 'validation_failed');
      await expectError(await save({ service_name: 'github', client_id: 'id', client_secret: 's', extra: 'no' }), 400, 'validation_failed');
      await expectError(await save({ service_name: 'github' }), 400, 'validation_failed');
      await expectError(await save('{"service_name": "github", '), 400);
      await expectError(await save('service_name=github', 'text/plain'), 400);
      await expectError(await save({ service_name: 'myspace', client_id: 'id', client_secret: 's' }), 404, 'unknown_service');
    });

    it('catalog edits: a person → 403; wrong types, bad URLs, unknown or malformed ids → 4xx', async () => {
      const id = (await list(admin)).find((service) => service.service_name === 'github')!.id as string;
      const put = (who: SeededUser, target: string, body: unknown) =>
        t.fetch(`/api/external-services/${target}`, {
          method: 'PUT',
          headers: { ...bearer(who.token), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const valid = { ...stand.rows.github, app_secret: 'changed' };
      await expectError(await put(user, id, valid), 403, 'forbidden');
      await expectError(await put(admin, id, { ...valid, send_scope: 'yes' }), 400, 'validation_failed');
      await expectError(await put(admin, id, { ...valid, token_url: 'javascript:alert(1)' }), 400, 'validation_failed');
      await expectError(await put(admin, id, { ...valid, token_auth: 'digest' }), 400, 'validation_failed');
      await expectError(await put(admin, id, { ...valid, extra_headers: { 'Bad Header': 'x' } }), 400, 'validation_failed');
      await expectError(await put(admin, id, { ...valid, app_secret: 's'.repeat(10_001) }), 400, 'validation_failed');
      await expectError(await put(admin, id, { ...valid, service_name: '../etc' }), 400, 'validation_failed');
      await expectError(await put(admin, 'not-a-uuid', valid), 400, 'validation_failed');
      await expectError(await put(admin, '00000000-0000-4000-8000-000000000000', valid), 404, 'unknown_service');
    });
  });
});
