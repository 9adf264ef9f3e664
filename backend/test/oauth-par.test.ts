import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { Redis } from 'ioredis';
import { freePort } from '@life/test-support';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, TEST_REDIS_URL, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'http://127.0.0.1:7777/callback';
const URN = 'urn:ietf:params:oauth:request_uri:';
const form = (values: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(values).toString(),
});
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const VERIFIER = 'v'.repeat(64);

describe('pushed authorization requests (RFC 9126; real PostgreSQL + Redis; openid-client as the outside client)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  let redis: Redis;

  const json = async (response: Response) => (await response.json()) as Json;
  const adminJson = (path: string, method: string, body?: unknown) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(admin.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const createClient = async (input: Json = {}): Promise<Json> => {
    const response = await adminJson('/oauth_clients', 'POST', { name: 'Agenda PAR', redirect_uris: [REDIRECT], ...input });
    expect(response.status).toBe(201);
    return json(response);
  };
  const push = (values: Record<string, string>, headers: Record<string, string> = {}) => t.fetch('/oauth/par', form(values, headers));
  const describeRequest = (query: Record<string, string>) => t.fetch(`/oauth/authorize?${new URLSearchParams(query)}`);
  const decide = (body: Record<string, string>, action: 'allow' | 'deny' = 'allow') =>
    t.fetch('/oauth/authorize', {
      method: 'POST',
      headers: { ...bearer(person.token), 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, action }),
    });
  const parKey = (requestUri: string) => `${t.queuePrefix}:oauth-par:${createHash('sha256').update(requestUri).digest('hex')}`;
  const plainRequest = (app: Json) => ({
    client_id: app.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid profile',
    state: 'st-par',
    code_challenge: s256(VERIFIER),
    code_challenge_method: 'S256',
  });

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({ role: 'web', env: { PORT: String(port), APP_URL: `http://127.0.0.1:${port}` } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
    redis = new Redis(TEST_REDIS_URL);
  });

  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
  });

  it('discovery names the PAR endpoint and does not require PAR server-wide', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const meta = await json(await t.fetch(path));
      expect(meta.pushed_authorization_request_endpoint).toBe(`${t.url}/oauth/par`);
      expect(meta.require_pushed_authorization_requests).toBe(false);
    }
  });

  it('openid-client pushes the request, the consent page reads and decides it, the code is exchanged, and the request_uri is spent', async () => {
    const app = await createClient();
    const config = await client.discovery(new URL(t.url), app.client_id, undefined, client.ClientSecretBasic(app.client_secret), {
      execute: [client.allowInsecureRequests],
    });
    const verifier = client.randomPKCECodeVerifier();
    const url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile',
      state: 'st-oc',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    expect(url.origin + url.pathname).toBe(`${t.url}/oauth/authorize`);
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    const requestUri = url.searchParams.get('request_uri')!;
    expect(requestUri.startsWith(URN)).toBe(true);
    // Kept a minute in Redis (shared by every process), under its hash.
    const ttl = await redis.ttl(parKey(requestUri));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);

    // The consent page's GET with the browser's query string (other parameters are ignored, RFC 9126 §4).
    const described = await describeRequest({ ...Object.fromEntries(url.searchParams), scope: 'email', redirect_uri: 'https://evil.example/cb' });
    const info = await json(described);
    expect([described.status, info.error]).toEqual([200, undefined]);
    expect(info).toMatchObject({ client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid profile', state: 'st-oc' });
    // Opened by the consent page: the person now has the consent window to sign in and decide.
    expect(await redis.ttl(parKey(requestUri))).toBeGreaterThan(60);

    const decided = await decide(Object.fromEntries(url.searchParams));
    const body = await json(decided);
    expect([decided.status, body.error]).toEqual([200, undefined]);
    const back = new URL(body.redirect_to as string);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: 'st-oc' });
    expect(tokens.access_token).toMatch(/^lat_/);
    expect(tokens.claims()?.sub).toBe(person.id);

    // Spent by the code: the same request_uri again is a clear error, never a redirect.
    expect(await redis.exists(parKey(requestUri))).toBe(0);
    for (const again of [await describeRequest(Object.fromEntries(url.searchParams)), await decide(Object.fromEntries(url.searchParams))]) {
      const error = await json(again);
      expect(again.status).toBe(400);
      expect(error).toMatchObject({ error: 'invalid_request_uri', error_description: expect.any(String), message: expect.any(String) });
      expect(JSON.stringify(error)).not.toContain('redirect');
    }
  });

  it('a deny spends the pushed request too', async () => {
    const app = await createClient();
    const pushed = await json(await push(plainRequest(app), { authorization: basic(app.client_id, app.client_secret) }));
    const decided = await json(await decide({ client_id: app.client_id, request_uri: pushed.request_uri }, 'deny'));
    expect(new URL(decided.redirect_to as string).searchParams.get('error')).toBe('access_denied');
    expect((await decide({ client_id: app.client_id, request_uri: pushed.request_uri })).status).toBe(400);
  });

  it('answers 201 with a request_uri for client_secret_post and for a public client (none), no-store', async () => {
    const app = await createClient();
    const response = await push({ ...plainRequest(app), client_secret: app.client_secret });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await json(response);
    expect(body).toEqual({ request_uri: expect.stringMatching(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/), expires_in: 60 });
    // The client_secret is not kept with the request.
    expect(await redis.get(parKey(body.request_uri as string))).not.toContain(app.client_secret);

    const spa = await createClient({ client_type: 'public' });
    const pub = await push(plainRequest(spa));
    expect(pub.status).toBe(201);
    // The authorization endpoint's rules apply: a public client without PKCE is refused.
    const { code_challenge: _c, code_challenge_method: _m, ...noPkce } = plainRequest(spa);
    const refused = await push(noPkce);
    expect([refused.status, (await json(refused)).error]).toEqual([400, 'invalid_request']);
  });

  it('binds the request_uri to its client: another client_id, an unknown or expired one is a clear error page', async () => {
    const app = await createClient();
    const other = await createClient();
    const pushed = await json(await push(plainRequest(app), { authorization: basic(app.client_id, app.client_secret) }));
    const cases = [
      { client_id: other.client_id, request_uri: pushed.request_uri },
      { client_id: app.client_id, request_uri: `${URN}doesnotexist` },
      { client_id: app.client_id, request_uri: `${URN}${'ñ'.repeat(300)}` },
    ];
    for (const query of cases) {
      const response = await describeRequest(query);
      expect(response.status).toBe(400);
      expect(await json(response)).toMatchObject({ error: 'invalid_request_uri', message: expect.stringMatching(/caducado/) });
    }
    // Expired: Redis forgot it (its TTL ran out).
    await redis.del(parKey(pushed.request_uri as string));
    expect((await describeRequest({ client_id: app.client_id, request_uri: pushed.request_uri })).status).toBe(400);
    // No client_id with the request_uri.
    const missing = await describeRequest({ request_uri: `${URN}abc` });
    expect([missing.status, (await json(missing)).error]).toEqual([400, 'invalid_request']);
  });

  it('refuses bad pushes with RFC 6749 JSON errors, never a 500', async () => {
    const app = await createClient();
    const auth = { authorization: basic(app.client_id, app.client_secret) };
    const expectError = async (response: Response, status: number, error: string) => {
      const body = await json(response);
      expect([response.status, body.error]).toEqual([status, error]);
      expect(body.error_description).toEqual(expect.any(String));
      expect(body.message).toEqual(expect.any(String));
    };
    await expectError(await push(plainRequest(app)), 401, 'invalid_client');
    await expectError(await push(plainRequest(app), { authorization: basic(app.client_id, 'wrong') }), 401, 'invalid_client');
    await expectError(await push({ ...plainRequest(app), request_uri: `${URN}x` }, auth), 400, 'invalid_request');
    await expectError(await push({ ...plainRequest(app), redirect_uri: 'https://evil.example/cb' }, auth), 400, 'invalid_request');
    await expectError(await push({ ...plainRequest(app), scope: 'service:nonexistent' }, auth), 400, 'invalid_scope');
    await expectError(await push({ ...plainRequest(app), response_type: 'token' }, auth), 400, 'unsupported_response_type');
    await expectError(await push({ ...plainRequest(app), client_id: 'someone-else' }, auth), 400, 'invalid_request');
    await expectError(await push({ ...plainRequest(app), state: 'é'.repeat(5000) }, auth), 400, 'invalid_request');
    await expectError(await push({ ...plainRequest(app), state: 'a\u0000b' }, auth), 400, 'invalid_request');
    const repeated = await t.fetch('/oauth/par', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      body: `${new URLSearchParams(plainRequest(app))}&scope=email`,
    });
    await expectError(repeated, 400, 'invalid_request');
    const asJson = await t.fetch('/oauth/par', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(plainRequest(app)),
    });
    expect(asJson.status).toBeGreaterThanOrEqual(400);
    expect(asJson.status).toBeLessThan(500);
    // Undecodable form noise carries no parameter: for a confidential client with one redirect URI that is a valid (empty) request.
    const garbage = await t.fetch('/oauth/par', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      body: '%%%&&&==',
    });
    expect(garbage.status).toBeLessThan(500);
    const huge = await t.fetch('/oauth/par', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      body: `scope=${'x'.repeat(3_000_000)}`,
    });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
  });

  it('keeps only authorization parameters, and answers what the authorization endpoint would send back to the app as a 400 here', async () => {
    const app = await createClient();
    const auth = { authorization: basic(app.client_id, app.client_secret) };
    // Junk beside a good request is not stored (the store would otherwise hold whatever a body brings).
    const pushed = await push({ ...plainRequest(app), junk: 'x'.repeat(100_000), ui_extra: 'y' }, auth);
    expect(pushed.status).toBe(201);
    const stored = await redis.get(parKey((await json(pushed)).request_uri as string));
    expect(stored).not.toBeNull();
    expect(stored!.length).toBeLessThan(2_000);
    expect(stored).not.toContain('junk');
    // prompt, max_age and request objects fail after the client and redirect URI: at the PAR endpoint that is a 400, never a 500.
    for (const [name, value, error] of [
      ['prompt', 'bogus', 'invalid_request'],
      ['prompt', 'none login', 'invalid_request'],
      ['max_age', 'x', 'invalid_request'],
      ['request', 'eyJhbGciOiJub25lIn0.e30.', 'request_not_supported'],
    ] as const) {
      const response = await push({ ...plainRequest(app), [name]: value }, auth);
      const body = await json(response);
      expect([name, value, response.status, body.error, typeof body.message]).toEqual([name, value, 400, error, 'string']);
    }
  });

  it('require_pushed_authorization_requests per client: set by the admin, a plain request refused, a pushed one accepted', async () => {
    const app = await createClient({ require_pushed_authorization_requests: true });
    expect(app.require_pushed_authorization_requests).toBe(true);
    const listed = (await json(await adminJson('/oauth_clients', 'GET'))) as unknown as Json[];
    expect(listed.find((c) => c.id === app.id)).toMatchObject({ require_pushed_authorization_requests: true });

    const plain = await describeRequest(plainRequest(app));
    expect(plain.status).toBe(400);
    expect(await json(plain)).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/\/oauth\/par/) });
    expect((await decide(plainRequest(app))).status).toBe(400);

    const pushed = await json(await push(plainRequest(app), { authorization: basic(app.client_id, app.client_secret) }));
    const described = await describeRequest({ client_id: app.client_id, request_uri: pushed.request_uri });
    expect(described.status).toBe(200);
    const decided = await json(await decide({ client_id: app.client_id, request_uri: pushed.request_uri }));
    expect(new URL(decided.redirect_to as string).searchParams.get('code')).toMatch(/^lac_/);

    // Turned off: plain requests work again at once (the client cache hears of the change).
    const updated = await json(await adminJson(`/oauth_clients/${app.id}`, 'PUT', { ...app, require_pushed_authorization_requests: false }));
    expect(updated.require_pushed_authorization_requests).toBe(false);
    expect((await describeRequest(plainRequest(app))).status).toBe(200);
    const refused = await adminJson(`/oauth_clients/${app.id}`, 'PUT', { ...app, require_pushed_authorization_requests: 'yes' });
    expect(refused.status).toBe(400);
  });
});
