import { createHash, randomBytes } from 'node:crypto';
import { freePort } from '@life/test-support';
import {
  familyPresets,
  followAuthorize,
  GITHUB_APP_TOKENS,
  startServiceStandIn,
  startServiceStandIns,
  type ServiceFamily,
  type ServiceStandIn,
  type ServiceStandIns,
} from '@life/test-support/standins/services';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const REDIRECT = 'http://127.0.0.1:7777/callback';

/** Each service, the family standing in for it, and one realistic API call an app makes through the proxy. */
const CASES: {
  service: string;
  family: ServiceFamily;
  path: string;
  method?: 'POST';
  body?: unknown;
  expected: Json;
  /** The refresh answer rotates the refresh token (the old one dies). */
  rotates: boolean;
}[] = [
  { service: 'github', family: 'github', path: 'user', expected: { login: 'octo-connector', type: 'User' }, rotates: true },
  { service: 'googledrive', family: 'google', path: 'drive/v3/files', expected: { kind: 'drive#fileList' }, rotates: false },
  {
    service: 'googlefit',
    family: 'google',
    path: 'fitness/v1/users/me/dataset:aggregate',
    method: 'POST',
    body: {
      aggregateBy: [{ dataTypeName: 'com.google.step_count.delta' }],
      bucketByTime: { durationMillis: 86_400_000 },
      startTimeMillis: 1,
      endTimeMillis: 2,
    },
    expected: { bucket: [{ startTimeMillis: '1', endTimeMillis: '2' }] },
    rotates: false,
  },
  { service: 'spotify', family: 'spotify', path: 'me', expected: { display_name: 'Sofía Spotify', type: 'user' }, rotates: false },
  { service: 'notion', family: 'notion', path: 'users/me', expected: { object: 'user', type: 'bot' }, rotates: true },
  { service: 'destiny2', family: 'bungie', path: 'User/GetMembershipsForCurrentUser/', expected: { ErrorStatus: 'Success' }, rotates: true },
  { service: 'soundcloud', family: 'soundcloud', path: 'me', expected: { username: 'sam-soundcloud', kind: 'user' }, rotates: true },
  { service: 'fitbit', family: 'rotating', path: '1/user/-/profile.json', expected: { user: { displayName: 'Fiona Fitbit' } }, rotates: true },
];

/**
 * Issue 16: the providers' real quirks as the app's one code path meets them. A provider refuses an
 * access token before our expiry says so (expired early, revoked): the proxy refreshes once and
 * retries with the new token, in every provider's dialect (Basic or body, JSON bodies, API keys,
 * `OAuth` scheme, rotation always, sometimes or never). GitHub answers a dead refresh token with
 * HTTP 200 and `bad_refresh_token`: the connection needs a reconnect, not a backoff.
 */
describe('provider quirks through the proxy (real PostgreSQL + Redis, stand-ins)', () => {
  let stand: ServiceStandIns;
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  let appToken: string;

  const json = async (response: Response) => (await response.json()) as Json;
  const asAdmin = (path: string, method: string, body?: unknown) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(admin.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const catalogId = async (service: string) =>
    ((await json(await t.fetch('/api/external-services/all', { headers: bearer(admin.token) }))) as unknown as Json[]).find(
      (row) => row.service_name === service,
    )!.id as string;
  const connection = async (service: string, user = person) =>
    (
      await t.db.query<Json>(
        `select c.* from service_connections c join external_services s on s.id = c.service_id where s.service_name = $1 and c.user_id = $2`,
        [service, user.id],
      )
    ).rows[0];
  const connect = async (service: string, user = person) => {
    const auth = await json(await t.fetch(`/api/external-services/${service}/auth`, { method: 'POST', headers: bearer(user.token) }));
    const back = await followAuthorize(auth.auth_url as string);
    const done = await t.fetch(`/callback/${service}?${back.searchParams}`, { headers: { ...bearer(user.token), accept: 'application/json' } });
    expect(done.status).toBe(200);
  };
  const proxy = (service: string, path: string, init: { method?: string; body?: unknown } = {}, token = appToken) =>
    t.fetch(`/api/v1/services/${service}/proxy/${path}`, {
      method: init.method ?? 'GET',
      headers: { ...bearer(token), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const standInOf = (family: ServiceFamily) => stand[family]!;

  beforeAll(async () => {
    stand = await startServiceStandIns({
      families: ['github', 'google', 'spotify', 'notion', 'bungie', 'soundcloud', 'rotating'],
      overrides: { github: GITHUB_APP_TOKENS },
      rowsByFamily: {
        github: ['github'],
        google: ['googledrive', 'googlefit'],
        spotify: ['spotify'],
        notion: ['notion'],
        bungie: ['destiny2'],
        soundcloud: ['soundcloud'],
        rotating: ['fitbit'],
      },
    });
    const port = await freePort();
    t = await startTestApp({ role: 'web', env: { PORT: String(port), APP_URL: `http://127.0.0.1:${port}` } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
    for (const { service } of CASES) expect((await asAdmin(`/api/external-services/${await catalogId(service)}`, 'PUT', stand.rows[service])).status).toBe(200);
    for (const { service } of CASES) await connect(service);

    // A third-party app the person allowed every one of these services.
    const scopes = CASES.map(({ service }) => `service:${service}`);
    const app = await json(await asAdmin('/oauth_clients', 'POST', { name: 'Quirks', redirect_uris: [REDIRECT], allowed_scopes: ['openid', ...scopes] }));
    const consent = await json(
      await t.fetch('/oauth/authorize', {
        method: 'POST',
        headers: { ...bearer(person.token), 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: app.client_id, redirect_uri: REDIRECT, scope: scopes.join(' '), state: 'st', action: 'allow' }),
      }),
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
          client_id: app.client_id as string,
          client_secret: app.client_secret as string,
        }).toString(),
      }),
    );
    appToken = tokens.access_token as string;
    expect(appToken).toBeTruthy();
  });

  afterAll(async () => {
    await t?.close();
    await stand?.close();
  });

  it.each(CASES)(
    '$service: an access token the provider calls expired is refreshed once in its dialect and the call goes through with the new one',
    async ({ service, family, path, method, body, expected, rotates }) => {
      const standIn = standInOf(family);
      const first = await proxy(service, path, { method, body });
      expect(first.status).toBe(200);
      expect(await json(first)).toMatchObject(expected);

      const before = await connection(service);
      const refreshesBefore = standIn.counts.refresh_token;
      const refreshTokenBefore = standIn.tokenCalls.filter((call) => call.grantType === 'refresh_token').length;
      // Our expiry still says the token is good; the provider says it is not.
      expect(new Date(before!.expires_at as string).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
      expect(standIn.expireAccessTokens()).toBeGreaterThan(0);

      const callsBefore = standIn.userCalls.length;
      const second = await proxy(service, path, { method, body });
      expect(second.status).toBe(200);
      expect(await json(second)).toMatchObject(expected);
      // One refused call (the provider's own "expired" answer), one refresh, one call with the new token.
      expect(standIn.userCalls.slice(callsBefore).map((call) => [call.status, call.refusal])).toEqual([
        [401, 'expired'],
        [200, undefined],
      ]);
      expect(standIn.counts.refresh_token).toBe(refreshesBefore + 1);
      const refresh = standIn.tokenCalls.filter((call) => call.grantType === 'refresh_token')[refreshTokenBefore]!;
      expect(refresh.status).toBe(200);
      expect(refresh.clientAuth).toBe(familyPresets()[family].tokenAuth);

      const after = await connection(service);
      expect(after).toMatchObject({ status: 'connected', refresh_failures: 0 });
      expect(after!.access_token_encrypted).not.toBe(before!.access_token_encrypted);
      if (rotates) {
        expect(after!.refresh_token_encrypted).not.toBe(before!.refresh_token_encrypted);
        expect(standIn.refreshTokenAlive(refresh.body.refresh_token!)).toBe(false);
      } else {
        // Google and (this time) Spotify send no new refresh token: the one we have stays.
        expect(after!.refresh_token_encrypted).toBe(before!.refresh_token_encrypted);
      }

      // A third call needs no refresh: the new token is fresh.
      expect((await proxy(service, path, { method, body })).status).toBe(200);
      expect(standIn.counts.refresh_token).toBe(refreshesBefore + 1);
    },
  );

  it('many calls refused at once cause one refresh (Spotify: the second refresh answer brings a new refresh token, kept)', async () => {
    const spotify = standInOf('spotify');
    const before = await connection('spotify');
    const refreshes = spotify.counts.refresh_token;
    spotify.expireAccessTokens();
    const answers = await Promise.all(Array.from({ length: 6 }, () => proxy('spotify', 'me')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(spotify.counts.refresh_token).toBe(refreshes + 1);
    const after = await connection('spotify');
    // This refresh answer carried a new refresh token: it replaced the stored one.
    expect(after!.refresh_token_encrypted).not.toBe(before!.refresh_token_encrypted);
  });

  it('a provider error that is not about the token passes through unchanged, without a refresh (YouTube-style 400 from Google)', async () => {
    const google = standInOf('google');
    const refreshes = google.counts.refresh_token;
    const bad = await proxy('googlefit', 'fitness/v1/users/me/dataset:aggregate', { method: 'POST', body: { startTimeMillis: 1 } });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    expect(google.counts.refresh_token).toBe(refreshes);
  });

  it('GitHub answers a dead refresh token with HTTP 200 and bad_refresh_token: the connection needs a reconnect, no backoff loop', async () => {
    const github = standInOf('github');
    const refreshes = github.counts.refresh_token;
    github.expireAccessTokens();
    github.failNextRefresh('invalid_grant');
    const answer = await proxy('github', 'user');
    expect(answer.status).toBe(409);
    expect(await json(answer)).toMatchObject({ error: 'needs_reconnect' });
    const refresh = github.tokenCalls.filter((call) => call.grantType === 'refresh_token').at(-1)!;
    expect(refresh).toMatchObject({ status: 200, error: 'bad_refresh_token' });
    expect(await connection('github')).toMatchObject({ status: 'needs_reconnect', refresh_not_before: null });
    expect(String((await connection('github'))!.last_error)).toContain('bad_refresh_token');
    // Further calls do not go back to GitHub's token endpoint.
    expect((await proxy('github', 'user')).status).toBe(409);
    expect(github.counts.refresh_token).toBe(refreshes + 1);

    // Connecting again through the same flow heals it.
    await connect('github');
    expect(await connection('github')).toMatchObject({ status: 'connected' });
    expect((await proxy('github', 'user')).status).toBe(200);
  });

  it.each([
    { service: 'fitbit', family: 'rotating' as const, path: '1/user/-/profile.json', body: { errors: [{ errorType: 'invalid_grant' }], success: false } },
    {
      service: 'googledrive',
      family: 'google' as const,
      path: 'drive/v3/files',
      body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    },
  ])(
    '$service: a dead refresh token in the provider’s own error body ($family) means reconnect, then connecting again heals it',
    async ({ service, family, path, body }) => {
      const standIn = standInOf(family);
      standIn.expireAccessTokens();
      standIn.failNextRefresh('invalid_grant');
      const calls = standIn.tokenCalls.length;
      const answer = await proxy(service, path);
      expect(answer.status).toBe(409);
      expect(await json(answer)).toMatchObject({ error: 'needs_reconnect' });
      expect(standIn.tokenCalls.slice(calls)).toEqual([expect.objectContaining({ grantType: 'refresh_token', status: 400, error: 'invalid_grant' })]);
      expect(await connection(service)).toMatchObject({ status: 'needs_reconnect', last_error: 'token endpoint: invalid_grant (HTTP 400)' });
      // What the provider said, as the stand-in said it (the app read the code from it).
      const basic = family === 'rotating';
      const refusal = await fetch(standIn.tokenUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(basic ? { authorization: `Basic ${Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString('base64')}` } : {}),
        },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'dead',
          ...(basic ? {} : { client_id: standIn.clientId, client_secret: standIn.clientSecret }),
        }).toString(),
      });
      expect(refusal.status).toBe(400);
      expect(await refusal.json()).toMatchObject(body);
      await connect(service);
      expect((await proxy(service, path)).status).toBe(200);
    },
  );

  it('a GitHub OAuth app token (no refresh token) refused by GitHub: its "Bad credentials" answer passes through and nothing is refreshed', async () => {
    const oauthApp = await startServiceStandIn({ ...familyPresets().github, clientId: 'gh-oauth-app', clientSecret: 'gh-oauth-secret' });
    try {
      const row = {
        ...stand.rows.github,
        app_id: 'gh-oauth-app',
        app_secret: 'gh-oauth-secret',
        auth_url: oauthApp.authorizeUrl,
        token_url: oauthApp.tokenUrl,
        base_url: oauthApp.url,
        user_url: oauthApp.userUrl,
        revoke_url: oauthApp.revokeUrl,
      };
      expect((await asAdmin(`/api/external-services/${await catalogId('github')}`, 'PUT', row)).status).toBe(200);
      await connect('github');
      expect(await connection('github')).toMatchObject({ status: 'connected', refresh_token_encrypted: null, expires_at: null });
      expect((await proxy('github', 'user')).status).toBe(200);

      expect(oauthApp.expireAccessTokens()).toBe(1);
      const apiCalls = oauthApp.userCalls.length;
      const refused = await proxy('github', 'user');
      expect(refused.status).toBe(401);
      expect(await json(refused)).toEqual({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
      // One call to GitHub, no retry, no refresh attempt.
      expect(oauthApp.userCalls.slice(apiCalls).map((call) => call.refusal)).toEqual(['expired']);
      expect(oauthApp.counts.refresh_token).toBe(0);
      expect(await connection('github')).toMatchObject({ status: 'connected', refresh_failures: 0 });
    } finally {
      await oauthApp.close();
    }
  });
});

/** The stand-ins themselves: each refuses wrong calls the way its provider does (what the app must cope with). */
describe('the service stand-ins speak their providers’ refusals', () => {
  let stand: ServiceStandIns;
  beforeAll(async () => {
    stand = await startServiceStandIns({ families: ['github', 'google', 'spotify', 'notion', 'bungie', 'soundcloud', 'rotating', 'microsoft'] });
  });
  afterAll(async () => {
    await stand?.close();
  });

  /** A live access token of the stand-in, through its real authorize and token endpoints (client auth in its style). */
  async function tokenOf(family: ServiceFamily): Promise<{ standIn: ServiceStandIn; token: string }> {
    const standIn = stand[family]!;
    const preset = familyPresets(stand.apiKey)[family];
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(standIn.authorizeUrl);
    authorize.search = new URLSearchParams({
      client_id: standIn.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      state: 's',
      ...(preset.requireNoScope ? {} : { scope: family === 'microsoft' ? 'openid offline_access' : 'openid' }),
      ...(preset.requiredAuthParams ?? {}),
      ...(preset.pkce === 'required' ? { code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' } : {}),
    }).toString();
    const back = await followAuthorize(authorize.toString());
    const fields: Record<string, string> = { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: REDIRECT };
    if (preset.pkce === 'required') fields.code_verifier = verifier;
    const headers: Record<string, string> = { accept: 'application/json', ...(preset.requiredHeaders ?? {}) };
    if (preset.tokenAuth === 'basic') headers.authorization = `Basic ${Buffer.from(`${standIn.clientId}:${standIn.clientSecret}`).toString('base64')}`;
    else Object.assign(fields, { client_id: standIn.clientId, client_secret: standIn.clientSecret });
    const json = preset.body === 'json';
    headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
    const answer = await fetch(standIn.tokenUrl, { method: 'POST', headers, body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString() });
    const body = (await answer.json()) as Json;
    expect(body.access_token).toBeTruthy();
    return { standIn, token: body.access_token as string };
  }

  it('Spotify: "The access token expired" inside an error object; Basic client auth required at the token endpoint', async () => {
    const { standIn, token } = await tokenOf('spotify');
    const me = `${standIn.url}/v1/me`;
    expect(await (await fetch(me)).json()).toEqual({ error: { status: 401, message: 'No token provided' } });
    expect((await fetch(me, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    standIn.expireAccessTokens();
    const expired = await fetch(me, { headers: { authorization: `Bearer ${token}` } });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ error: { status: 401, message: 'The access token expired' } });
    const bodyAuth = await fetch(standIn.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: standIn.clientId,
        client_secret: standIn.clientSecret,
      }).toString(),
    });
    expect(bodyAuth.status).toBe(401);
    expect(await bodyAuth.json()).toMatchObject({ error: 'invalid_client' });
    // Spotify's own endpoint paths (accounts.spotify.com/api/token); the generic ones are not there.
    expect(new URL(standIn.tokenUrl).pathname).toBe('/api/token');
    expect((await fetch(`${standIn.url}/oauth/token`, { method: 'POST' })).status).toBe(404);
  });

  it('Notion: Notion-Version required (400 missing_version), an unknown token is {"object":"error","code":"unauthorized"}', async () => {
    const { standIn, token } = await tokenOf('notion');
    const noVersion = await fetch(`${standIn.url}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ object: 'error', status: 400, code: 'missing_version' });
    const unknown = await fetch(`${standIn.url}/v1/users/me`, { headers: { authorization: 'Bearer secret_nope', 'Notion-Version': '2022-06-28' } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ object: 'error', status: 401, code: 'unauthorized', message: 'API token is invalid.' });
  });

  it('SoundCloud wants `Authorization: OAuth`; Google answers UNAUTHENTICATED with WWW-Authenticate; YouTube subscriptions need a filter', async () => {
    const sc = await tokenOf('soundcloud');
    expect((await fetch(`${sc.standIn.url}/me`, { headers: { authorization: `Bearer ${sc.token}` } })).status).toBe(401);
    expect((await fetch(`${sc.standIn.url}/me`, { headers: { authorization: `OAuth ${sc.token}` } })).status).toBe(200);

    const google = await tokenOf('google');
    google.standIn.expireAccessTokens();
    const expired = await fetch(`${google.standIn.url}/drive/v3/files`, { headers: { authorization: `Bearer ${google.token}` } });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await expired.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    const fresh = await tokenOf('google');
    const noFilter = await fetch(`${fresh.standIn.url}/youtube/v3/subscriptions?part=snippet`, { headers: { authorization: `Bearer ${fresh.token}` } });
    expect(noFilter.status).toBe(400);
    const mine = await fetch(`${fresh.standIn.url}/youtube/v3/subscriptions?part=snippet&mine=true`, { headers: { authorization: `Bearer ${fresh.token}` } });
    expect(await mine.json()).toMatchObject({ kind: 'youtube#subscriptionListResponse' });
  });

  it('Bungie needs X-API-Key (ApiInvalidOrExpiredKey) and answers membership_id; GitHub needs a User-Agent; Fitbit and Graph word expiry their way', async () => {
    const bungie = await tokenOf('bungie');
    const path = `${bungie.standIn.url}/Platform/User/GetMembershipsForCurrentUser/`;
    const noKey = await fetch(path, { headers: { authorization: `Bearer ${bungie.token}` } });
    expect(await noKey.json()).toMatchObject({ ErrorStatus: 'ApiInvalidOrExpiredKey' });
    bungie.standIn.expireAccessTokens();
    const expired = await fetch(path, { headers: { authorization: `Bearer ${bungie.token}`, 'X-API-Key': stand.apiKey } });
    expect(await expired.json()).toMatchObject({ ErrorCode: 99, ErrorStatus: 'WebAuthRequired' });

    const github = await tokenOf('github');
    // Node's fetch always sends a User-Agent; an empty one is what "missing" looks like here.
    const noAgent = await fetch(`${github.standIn.url}/user`, { headers: { authorization: `Bearer ${github.token}`, 'user-agent': '' } });
    expect(noAgent.status).toBe(403);

    const fitbit = await tokenOf('rotating');
    fitbit.standIn.expireAccessTokens();
    const fitExpired = await fetch(`${fitbit.standIn.url}/1/user/-/profile.json`, { headers: { authorization: `Bearer ${fitbit.token}` } });
    expect(await fitExpired.json()).toMatchObject({ errors: [{ errorType: 'expired_token' }], success: false });

    const graph = await tokenOf('microsoft');
    graph.standIn.expireAccessTokens();
    const graphExpired = await fetch(`${graph.standIn.url}/v1.0/me`, { headers: { authorization: `Bearer ${graph.token}` } });
    expect(await graphExpired.json()).toMatchObject({ error: { code: 'InvalidAuthenticationToken' } });
  });

  it('GitHub App tokens: ghu_/ghr_, 8 hours, a refresh returns a new pair and a reused refresh token is bad_refresh_token with HTTP 200', async () => {
    const app = await startServiceStandIn({ ...familyPresets().github, ...GITHUB_APP_TOKENS, clientId: 'Iv1.app', clientSecret: 'app-secret' });
    try {
      const back = await followAuthorize(`${app.authorizeUrl}?client_id=Iv1.app&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&state=s`);
      const post = (fields: Record<string, string>) =>
        fetch(app.tokenUrl, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: 'Iv1.app', client_secret: 'app-secret', ...fields }).toString(),
        });
      const first = (await (await post({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: REDIRECT })).json()) as Json;
      expect(first).toMatchObject({ expires_in: 28_800, refresh_token_expires_in: 15_897_600, token_type: 'bearer' });
      expect(first.access_token).toMatch(/^ghu_/);
      expect(first.refresh_token).toMatch(/^ghr_/);
      const second = (await (await post({ grant_type: 'refresh_token', refresh_token: first.refresh_token as string })).json()) as Json;
      expect(second.refresh_token).toMatch(/^ghr_/);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      const reused = await post({ grant_type: 'refresh_token', refresh_token: first.refresh_token as string });
      expect(reused.status).toBe(200);
      expect(await reused.json()).toMatchObject({ error: 'bad_refresh_token' });
    } finally {
      await app.close();
    }
  });
});
