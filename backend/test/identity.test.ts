import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { freePort, pollUntil } from '@life/test-support';
import { MICROSOFT_CONSUMER_TENANT, startAllStandIns, type AllStandIns, type LoginProviderName } from '@life/test-support/standins';
import { startOidcServer, subjectFor } from '../src/modules/auth/dev-idp/oidc-server.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Signing in end to end against the real app (real PostgreSQL + Redis) and local
 * stand-ins that speak each provider's protocol: GitHub (OAuth App), Google (a real OpenID
 * Connect server), Microsoft (identity platform v2.0: issuer per tenant, no email_verified,
 * optional xms_edov), Apple (form_post + ES256 client secret).
 * Driven over HTTP like a browser would, carrying cookies by hand.
 */

const MASK = '********';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const decodeHtml = (value: string) =>
  value
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"');

/** Just enough of a browser cookie jar (name + path) for the OIDC server's interaction cookies. */
class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttr = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttr ? pathAttr.slice(5) : '/';
      const expires = attributes.find((a) => a.toLowerCase().startsWith('expires='));
      const maxAge = attributes.find((a) => a.toLowerCase().startsWith('max-age='));
      const gone = value === '' || (expires && Date.parse(expires.slice(8)) <= Date.now()) || (maxAge && Number(maxAge.slice(8)) <= 0);
      if (gone) this.cookies.delete(`${name};${path}`);
      else this.cookies.set(`${name};${path}`, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

interface Started {
  /** Where the app sent the browser (the provider's authorize URL). */
  location: URL;
  /** `life_login=...`, as the browser would send it back to /login. */
  cookie: string;
}

interface Profile {
  id: string;
  username: string;
  email: string;
  role: 'user' | 'admin';
}

/** What our API answers: a sign-in success or an error. */
interface ApiBody {
  error?: string;
  message?: string;
  authToken?: string;
  user?: Profile;
  returnTo?: string;
}

interface Finished {
  status: number;
  body: ApiBody;
}

describe('Identity: sign-in with stand-in providers, sessions, roles (real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let s: AllStandIns;
  let appUrl: string;
  let adminToken: string;
  let userToken: string;
  let providerIds: Record<string, string>;
  let rogue: { url: string; idTokens: string[]; close(): Promise<void> };

  // ---------- helpers ----------

  const count = async (table: string): Promise<number> => Number((await t.db.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0].n);

  const snapshot = async () => ({
    users: await count('users'),
    identities: await count('user_identities'),
    sessions: await count('sessions'),
    invites: await count('beta_invites'),
    providers: await count('login_providers'),
  });

  async function seedSession(role: 'user' | 'admin', name: string): Promise<{ token: string; userId: string; sessionId: string }> {
    const token = randomBytes(32).toString('base64url');
    const userId = randomUUID();
    const sessionId = randomUUID();
    await t.db.query(`insert into users (id, created_at, updated_at, username, email, email_verified, role) values ($1, now(), now(), $2, $3, true, $4)`, [
      userId,
      name,
      `${name}@example.com`,
      role,
    ]);
    await t.db.query(
      `insert into sessions (id, token_hash, user_id, created_at, last_used_at, expires_at) values ($1, $2, $3, now(), now(), now() + interval '1 day')`,
      [sessionId, sha256(token), userId],
    );
    return { token, userId, sessionId };
  }

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  const api = (path: string, init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string>; body?: string } = {}) =>
    t.fetch(path, {
      method: init.method ?? (init.json !== undefined || init.body !== undefined ? 'POST' : 'GET'),
      headers: {
        accept: 'application/json',
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? auth(init.token) : {}),
        ...init.headers,
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });

  async function expectError(response: Response, status: number, code?: string): Promise<ApiBody> {
    const text = await response.text();
    if (response.status !== status) throw new Error(`Expected ${status}${code ? ` ${code}` : ''}, got ${response.status}: ${text.slice(0, 500)}`);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = JSON.parse(text) as ApiBody;
    expect(typeof body.error).toBe('string');
    expect(typeof body.message).toBe('string');
    expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/); // never a stack trace
    if (code) expect(body.error).toBe(code);
    return body;
  }

  const putProvider = (name: LoginProviderName, body: object) =>
    api(`/api/login-providers/${providerIds[name]}`, { method: 'PUT', token: adminToken, json: { service_name: name, ...body } });

  const invite = async (email: string) => {
    const response = await api('/beta-invites', { token: adminToken, json: { email } });
    expect(response.status).toBe(201);
  };

  /** GET /login/{provider}: a redirect to the provider and the browser-binding cookie. */
  async function startLogin(provider: string, query = ''): Promise<Started> {
    const response = await t.fetch(`/login/${provider}${query}`, { redirect: 'manual' });
    if (response.status !== 302) throw new Error(`start ${provider}: ${response.status} ${await response.text()}`);
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('life_login='));
    expect(setCookie).toBeDefined();
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Path=\/login/);
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    return { location, cookie: setCookie!.split(';')[0] };
  }

  /** The GitHub stand-in's consent page: the "Authorize" link leads to our callback with code and state. */
  async function githubConsent(location: URL): Promise<URL> {
    const page = await fetch(location);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('GitHub (stand-in)');
    const href = /data-testid="standin-authorize" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    return new URL(decodeHtml(href!));
  }

  /** The OIDC server: type the e-mail on its login page, it auto-consents, back to our callback. */
  async function oidcConsent(location: URL, email: string): Promise<URL> {
    const jar = new CookieJar();
    let next: URL = location;
    let method = 'GET';
    let body: URLSearchParams | undefined;
    for (let hop = 0; hop < 12; hop++) {
      if (next.href.startsWith(`${appUrl}/`)) return next;
      const response = await fetch(next, {
        method,
        body,
        redirect: 'manual',
        headers: { cookie: jar.header(next), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      });
      jar.store(response);
      method = 'GET';
      body = undefined;
      if (response.status >= 300 && response.status < 400) {
        next = new URL(response.headers.get('location')!, next);
        continue;
      }
      const html = await response.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
      if (response.status !== 200 || !action)
        throw new Error(`OIDC stand-in answered ${response.status}: ${html.replace(/<head>[\s\S]*<\/head>/, '').slice(0, 400)}`);
      next = new URL(decodeHtml(action), next);
      method = 'POST';
      body = new URLSearchParams({ email });
    }
    throw new Error('The OIDC stand-in never redirected back to the app');
  }

  /** The Apple stand-in's page: a form that POSTs code, state (and the name once) to our callback. */
  async function appleConsent(location: URL): Promise<{ action: URL; fields: Record<string, string> }> {
    const page = await fetch(location);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Apple (stand-in)');
    expect(html).toMatch(/data-testid="standin-authorize"[^>]*>Continue</);
    const action = new URL(decodeHtml(/<form method="post" action="([^"]+)"/.exec(html)![1]));
    const fields: Record<string, string> = {};
    for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]] = decodeHtml(match[2]);
    return { action, fields };
  }

  /** Apple's form_post lands on our POST callback, which continues on the GET callback page. */
  async function applePost(action: URL, fields: Record<string, string>): Promise<URL> {
    const response = await fetch(action, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
    expect(response.status).toBe(303);
    return new URL(response.headers.get('location')!, appUrl);
  }

  /** What the SPA's callback page does: GET the callback as JSON with the browser's cookie. */
  async function finish(callback: URL, cookie?: string): Promise<Finished> {
    const response = await fetch(callback, { headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) } });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as ApiBody) : {} };
  }

  /** The provider leg only: start, consent at the stand-in, back at our callback URL (not yet called). */
  async function toCallback(provider: LoginProviderName, email?: string, query = ''): Promise<Started & { callback: URL }> {
    const started = await startLogin(provider, query);
    if (provider === 'github') return { ...started, callback: await githubConsent(started.location) };
    if (provider === 'apple') {
      const { action, fields } = await appleConsent(started.location);
      return { ...started, callback: await applePost(action, fields) };
    }
    return { ...started, callback: await oidcConsent(started.location, email!) };
  }

  async function signIn(provider: LoginProviderName, email?: string, query = ''): Promise<Finished> {
    const { callback, cookie } = await toCallback(provider, email, query);
    return finish(callback, cookie);
  }

  async function expectSignedIn(result: Finished, email: string): Promise<{ authToken: string; user: Profile }> {
    if (result.status !== 200) throw new Error(`Sign-in refused: ${result.status} ${JSON.stringify(result.body)}`);
    expect(result.body.authToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.body.user).toEqual({ id: expect.any(String), username: expect.any(String), email, role: expect.stringMatching(/^(user|admin)$/) });
    const me = await api('/api/users/me', { token: result.body.authToken! });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual(result.body.user);
    return result.body as { authToken: string; user: Profile };
  }

  async function expectLogoutEndsSession(token: string): Promise<void> {
    const out = await api('/api/auth/logout', { method: 'POST', token });
    expect(out.status).toBe(204);
    await expectError(await api('/api/users/me', { token }), 401, 'unauthorized');
  }

  const usersWithEmail = async (email: string) => count(`users where email = '${email.replace(/'/g, "''")}'`);

  // ---------- setup ----------

  beforeAll(async () => {
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    t = await startTestApp({ env: { PORT: String(port), APP_URL: appUrl, ADMIN_EMAILS: 'admin@example.com' } });
    expect(t.url).toBe(appUrl);
    // oidc-provider warns that its in-memory adapter is for development: exactly what a stand-in is.
    const warn = console.warn;
    console.warn = (...args: unknown[]) => (String(args[0]).startsWith('oidc-provider WARNING') ? undefined : warn(...args));
    try {
      s = await startAllStandIns({
        appUrl,
        startOidcServer,
        githubAccounts: [{ id: 4242, login: 'octo-tester', name: 'Octo Tester', email: 'Octo@Example.com' }],
      });
    } finally {
      console.warn = warn;
    }

    // A tiny rogue token endpoint: answers any code with the id_token the test queued.
    const rogueServer = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'rogue-access-token', token_type: 'Bearer', expires_in: 3600, id_token: rogue.idTokens.shift() ?? 'none' }));
      });
    });
    await new Promise<void>((resolve) => rogueServer.listen(0, '127.0.0.1', resolve));
    rogue = {
      url: `http://127.0.0.1:${(rogueServer.address() as AddressInfo).port}`,
      idTokens: [],
      close: () =>
        new Promise<void>((resolve) => {
          rogueServer.close(() => resolve());
          rogueServer.closeAllConnections();
        }),
    };

    // The first admin is seeded directly (as the CLI would); everything else goes through the API.
    adminToken = (await seedSession('admin', 'root')).token;
    userToken = (await seedSession('user', 'plainuser')).token;

    const list = await api('/api/login-providers', { token: adminToken });
    expect(list.status).toBe(200);
    const rows = (await list.json()) as { id: string; service_name: string; app_secret: string }[];
    expect(rows.map((r) => r.service_name).sort()).toEqual(['apple', 'github', 'google', 'microsoft']);
    expect(rows.every((r) => r.app_secret === '')).toBe(true); // seeded without credentials
    providerIds = Object.fromEntries(rows.map((r) => [r.service_name, r.id]));
    for (const name of ['github', 'google', 'microsoft', 'apple'] as const) {
      const response = await putProvider(name, s.providers[name]);
      if (response.status !== 200) throw new Error(`PUT ${name}: ${response.status} ${await response.text()}`);
      expect(((await response.json()) as { app_secret: string }).app_secret).toBe(MASK);
    }
  });

  afterAll(async () => {
    await s?.close();
    await rogue?.close();
    await t?.close();
  });

  // ---------- the four providers, end to end ----------

  describe('signs in end to end', () => {
    it('with GitHub (OAuth App: PKCE, verified primary e-mail from /user/emails), then logs out', async () => {
      await invite('octo@example.com');
      const calls = s.github.tokenCalls.length;
      const result = await signIn('github', undefined, '?returnTo=%2Fdashboard%3Ftab%3D1');
      const { authToken, user } = await expectSignedIn(result, 'octo@example.com');
      expect(result.body.returnTo).toBe('/dashboard?tab=1');
      expect(user.username).toBe('octo-tester');
      expect(user.role).toBe('user');

      // The app exchanged the code once, as a confidential client with PKCE, asking for JSON.
      expect(s.github.tokenCalls.length).toBe(calls + 1);
      const call = s.github.tokenCalls.at(-1)!;
      expect(call.error).toBeUndefined();
      expect(call.body).toMatchObject({
        client_id: s.credentials.github.clientId,
        client_secret: s.credentials.github.clientSecret,
        redirect_uri: `${appUrl}/login/github/callback`,
      });
      expect(call.body.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(call.accept).toContain('application/json');

      const identity = await t.db.query('select provider, subject, email from user_identities where user_id = $1', [user.id]);
      expect(identity.rows).toEqual([{ provider: 'github', subject: '4242', email: 'octo@example.com' }]);

      await expectLogoutEndsSession(authToken);
    });

    it('with Google (OIDC: id_token verified against the JWKS, nonce, audience)', async () => {
      await invite('gina.google@example.com');
      const started = await startLogin('google');
      expect(started.location.origin).toBe(s.oidc.issuer);
      expect(started.location.searchParams.get('client_id')).toBe(s.credentials.google.clientId);
      expect(started.location.searchParams.get('nonce')).toBeTruthy();
      expect(started.location.searchParams.get('scope')).toBe('openid email profile');
      const callback = await oidcConsent(started.location, 'Gina.Google@example.com');
      expect(callback.pathname).toBe('/login/google/callback');
      expect(callback.searchParams.get('iss')).toBe(s.oidc.issuer); // RFC 9207, checked by the app
      const { authToken, user } = await expectSignedIn(await finish(callback, started.cookie), 'gina.google@example.com');
      const identity = await t.db.query('select provider, subject from user_identities where user_id = $1', [user.id]);
      expect(identity.rows).toEqual([{ provider: 'google', subject: subjectFor('gina.google@example.com') }]);
      await expectLogoutEndsSession(authToken);
    });

    it('with Microsoft (a personal account on the common endpoint: issuer of tenant 9188040d-…, no email_verified)', async () => {
      await invite('mike.microsoft@example.com');
      const started = await startLogin('microsoft');
      expect(started.location.href.startsWith(`${s.microsoft.url}/common/oauth2/v2.0/authorize?`)).toBe(true);
      expect(started.location.searchParams.get('client_id')).toBe(s.credentials.microsoft.clientId);
      const { authToken, user } = await expectSignedIn(
        await finish(await oidcConsent(started.location, 'mike.microsoft@example.com'), started.cookie),
        'mike.microsoft@example.com',
      );
      expect(user.username).toBe('mike.microsoft');
      // What Microsoft sent: its tenant-specific issuer, and no email_verified claim at all.
      const claims = s.microsoft.tokenCalls.at(-1)!.claims!;
      expect(claims).toMatchObject({ iss: `${s.microsoft.url}/${MICROSOFT_CONSUMER_TENANT}/v2.0`, tid: MICROSOFT_CONSUMER_TENANT, ver: '2.0' });
      expect(claims).not.toHaveProperty('email_verified');
      await expectLogoutEndsSession(authToken);
    });

    it('with Apple (form_post, the stand-in verifying our ES256 client-secret JWT, name only the first time)', async () => {
      await invite('ana.apple@example.com');
      const started = await startLogin('apple');
      expect(started.location.searchParams.get('response_mode')).toBe('form_post');
      expect(started.location.searchParams.get('nonce')).toBeTruthy();
      const { action, fields } = await appleConsent(started.location);
      expect(action.href).toBe(`${appUrl}/login/apple/callback`);
      expect(JSON.parse(fields.user)).toEqual({ name: { firstName: 'Ana', lastName: 'Apple' }, email: 'ana.apple@example.com' });
      const callback = await applePost(action, fields);
      expect(callback.pathname).toBe('/login/apple/callback');
      expect(callback.searchParams.get('code')).toBe(fields.code);
      expect(callback.searchParams.has('user')).toBe(false);

      const { authToken, user } = await expectSignedIn(await finish(callback, started.cookie), 'ana.apple@example.com');
      expect(user.username).toBe('AnaApple'); // from the one-time `user` form field

      const call = s.apple.tokenCalls.at(-1)!;
      expect(call.error).toBeUndefined();
      expect(call.clientSecretClaims).toMatchObject({ iss: s.credentials.apple.teamId, sub: s.credentials.apple.clientId, aud: s.apple.url });
      await expectLogoutEndsSession(authToken);

      // Second time: Apple sends no name; the same account is found by its subject.
      const again = await toCallback('apple');
      const second = await expectSignedIn(await finish(again.callback, again.cookie), 'ana.apple@example.com');
      expect(second.user.id).toBe(user.id);
      expect(await count(`user_identities where provider = 'apple'`)).toBe(1);
    });

    it('the Apple stand-in refuses a client secret not signed with the configured key', async () => {
      const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: s.credentials.apple.keyId })
        .setIssuer(s.credentials.apple.teamId)
        .setSubject(s.credentials.apple.clientId)
        .setAudience(s.apple.url)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(other.privateKey);
      const response = await fetch(`${s.apple.url}/auth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: s.credentials.apple.clientId, client_secret: forged }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_client' });
    });
  });

  // ---------- refusals in the flow ----------

  describe('refuses', () => {
    beforeAll(async () => {
      await invite('flow.victim@example.com');
      s.github.setAccount({ id: 777, login: 'victim', email: 'flow.victim@example.com' });
    });

    afterAll(() => {
      s.github.setAccount('octo-tester');
    });

    it('a replayed state: the second callback is 400 invalid_state and creates nothing', async () => {
      const { callback, cookie } = await toCallback('github');
      const first = await finish(callback, cookie);
      expect(first.status).toBe(200);
      const before = await snapshot();
      const replay = await finish(callback, cookie);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_state');
      expect(await snapshot()).toEqual(before);
      await expectLogoutEndsSession(first.body.authToken!);
      await t.db.query(`delete from users where email = 'flow.victim@example.com'`);
    });

    it("a state finished with another browser's cookie, or with none", async () => {
      const before = await snapshot();
      const a = await toCallback('github');
      const b = await startLogin('github');
      const withOther = await finish(a.callback, b.cookie);
      expect(withOther.status).toBe(400);
      expect(withOther.body.error).toBe('invalid_state');

      const c = await toCallback('github');
      const withNone = await finish(c.callback);
      expect(withNone.status).toBe(400);
      expect(withNone.body.error).toBe('invalid_state');

      const forged = await finish(c.callback, 'life_login=forged-value');
      expect(forged.status).toBe(400);
      expect(await snapshot()).toEqual(before);
      expect(await usersWithEmail('flow.victim@example.com')).toBe(0);
    });

    it('a callback URL replayed from another browser (no cookie, a wrong one, another provider) spends nothing: the rightful browser still signs in', async () => {
      const { callback, cookie } = await toCallback('github');
      const stranger = await startLogin('github');
      const calls = s.github.tokenCalls.length;
      const before = await snapshot();
      for (const attempt of [
        await finish(callback),
        await finish(callback, stranger.cookie),
        await finish(callback, 'life_login=forged-value'),
        await finish(new URL(`/login/google/callback${callback.search}`, appUrl), cookie),
      ]) {
        expect(attempt.status).toBe(400);
        expect(attempt.body.error).toBe('invalid_state');
      }
      expect(await snapshot()).toEqual(before);
      expect(s.github.tokenCalls.length).toBe(calls);
      // The person who started the sign-in finishes it, once.
      const rightful = await finish(callback, cookie);
      const { authToken } = await expectSignedIn(rightful, 'flow.victim@example.com');
      const again = await finish(callback, cookie);
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('invalid_state');
      await expectLogoutEndsSession(authToken);
      await t.db.query(`delete from users where email = 'flow.victim@example.com'`);
    });

    it("another provider's state", async () => {
      const before = await snapshot();
      const { callback, cookie } = await toCallback('github');
      const elsewhere = new URL(`/login/google/callback${callback.search}`, appUrl);
      const result = await finish(elsewhere, cookie);
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('invalid_state');
      expect(await snapshot()).toEqual(before);
    });

    it('a state the app never issued, and an answer claiming another issuer', async () => {
      const before = await snapshot();
      const unknown = await finish(new URL('/login/github/callback?code=abc&state=never-issued', appUrl), 'life_login=whatever');
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('invalid_state');

      await invite('iss.check@example.com');
      const started = await startLogin('google');
      const callback = await oidcConsent(started.location, 'iss.check@example.com');
      callback.searchParams.set('iss', 'https://evil.example');
      const mixUp = await finish(callback, started.cookie);
      expect(mixUp.status).toBe(400);
      expect(mixUp.body.error).toBe('invalid_state');
      expect((await snapshot()).users).toBe(before.users);
    });

    it('a code GitHub refuses (its errors come as HTTP 200 {error}): 502 provider_error', async () => {
      const before = await snapshot();
      const { callback, cookie } = await toCallback('github');
      callback.searchParams.set('code', 'not-a-code-github-issued');
      const result = await finish(callback, cookie);
      expect(result.status).toBe(502);
      expect(result.body.error).toBe('provider_error');
      expect(result.body.message).toContain('bad_verification_code');
      expect(s.github.tokenCalls.at(-1)!.error).toBe('bad_verification_code');
      expect(await snapshot()).toEqual(before);
    });

    it('a provider row without credentials: 503 provider_unavailable (no development login in tests)', async () => {
      expect((await putProvider('microsoft', { app_id: '' })).status).toBe(200);
      try {
        const response = await t.fetch('/login/microsoft', { redirect: 'manual', headers: { accept: 'application/json' } });
        await expectError(response, 503, 'provider_unavailable');
        expect(response.headers.getSetCookie()).toEqual([]);
        // A browser is sent back to the landing page with the reason instead.
        const page = await t.fetch('/login/microsoft', { redirect: 'manual', headers: { accept: 'text/html' } });
        expect(page.status).toBe(302);
        expect(page.headers.get('location')).toBe('/?login_error=provider_unavailable');
      } finally {
        expect((await putProvider('microsoft', { app_id: s.providers.microsoft.app_id })).status).toBe(200);
      }
    });

    it('a callback without code or state: 400 validation_failed', async () => {
      const { cookie, location } = await startLogin('github');
      const state = location.searchParams.get('state')!;
      for (const query of [`?state=${state}`, '?code=abc', '', `?code=&state=${state}`]) {
        const result = await finish(new URL(`/login/github/callback${query}`, appUrl), cookie);
        expect(result.status).toBe(400);
        expect(result.body.error).toBe('validation_failed');
      }
    });

    it('an id_token with a wrong nonce, wrong audience, wrong issuer, expired or a bad signature: 401 invalid_id_token', async () => {
      const original = s.apple.account;
      s.apple.setAccount({ sub: '009999.rogue.0001', email: 'flow.victim@example.com' });
      const before = await snapshot();
      const tampers = [
        { claims: { nonce: 'not-the-nonce-we-sent' } },
        { claims: { aud: 'com.example.someone-else' } },
        { claims: { iss: 'https://appleid.apple.com' } },
        { claims: { exp: Math.floor(Date.now() / 1000) - 3600 } },
        { foreignKey: true },
      ];
      for (const tamper of tampers) {
        const { callback, cookie } = await toCallback('apple');
        s.apple.tamperNextIdToken(tamper);
        const result = await finish(callback, cookie);
        expect({ tamper, status: result.status, error: result.body.error }).toEqual({ tamper, status: 401, error: 'invalid_id_token' });
      }
      expect(await snapshot()).toEqual(before);
      expect(await usersWithEmail('flow.victim@example.com')).toBe(0);
      s.apple.setAccount(original);
    });

    it('an OIDC id_token from a rogue token endpoint (foreign key, or unsigned)', async () => {
      const before = await snapshot();
      const point = await putProvider('google', { token_url: `${rogue.url}/token` });
      expect(point.status).toBe(200);
      try {
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          iss: s.oidc.issuer,
          aud: s.credentials.google.clientId,
          sub: 'rogue',
          email: 'flow.victim@example.com',
          email_verified: true,
          iat: now,
          exp: now + 600,
        };
        const foreign = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'rogue' }).sign(privateKey);
        const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
        for (const idToken of [foreign, unsigned]) {
          const { location, cookie } = await startLogin('google');
          rogue.idTokens.push(idToken);
          const result = await finish(new URL(`/login/google/callback?code=anything&state=${location.searchParams.get('state')}`, appUrl), cookie);
          expect(result.status).toBe(401);
          expect(result.body.error).toBe('invalid_id_token');
        }
      } finally {
        expect((await putProvider('google', { token_url: s.providers.google.token_url })).status).toBe(200);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('a first sign-in without an invitation in beta mode: 403 not_invited, no users row', async () => {
      const before = await snapshot();
      const result = await signIn('google', 'stranger@example.com');
      expect(result.status).toBe(403);
      expect(result.body.error).toBe('not_invited');
      expect(await usersWithEmail('stranger@example.com')).toBe(0);
      expect(await snapshot()).toEqual(before);
    });

    it('a GitHub account with no verified e-mail: 403 unverified_email (even when invited)', async () => {
      await invite('unverified@example.com');
      const before = await snapshot();
      s.github.setAccount({ id: 888, login: 'unverified', email: 'unverified@example.com', verified: false });
      const result = await signIn('github');
      expect(result.status).toBe(403);
      expect(result.body.error).toBe('unverified_email');
      expect(await usersWithEmail('unverified@example.com')).toBe(0);
      expect(await snapshot()).toEqual(before);

      // A verified secondary e-mail is used instead of the unverified primary.
      s.github.setAccount({
        id: 889,
        login: 'two-mails',
        email: 'unverified@example.com',
        emails: [
          { email: 'primary-unverified@example.com', primary: true, verified: false, visibility: 'private' },
          { email: 'unverified@example.com', primary: false, verified: true, visibility: null },
        ],
      });
      await expectSignedIn(await signIn('github'), 'unverified@example.com');
    });
  });

  // ---------- Microsoft e-mails (decision 0039) ----------

  describe('Microsoft: which e-mails count as verified (decision 0039)', () => {
    const work = (email: string, edov?: boolean | string) => s.microsoft.setAccount({ email, kind: 'work', ...(edov === undefined ? {} : { edov }) });

    it('a work account whose tenant verified the domain (xms_edov true) gets in the first time', async () => {
      work('wanda@contoso.example', true);
      await invite('wanda@contoso.example');
      const { user } = await expectSignedIn(await signIn('microsoft', 'wanda@contoso.example'), 'wanda@contoso.example');
      const claims = s.microsoft.tokenCalls.at(-1)!.claims!;
      expect(claims).toMatchObject({ tid: s.microsoft.organizationTenant, iss: `${s.microsoft.url}/${s.microsoft.organizationTenant}/v2.0`, xms_edov: true });
      expect(claims).not.toHaveProperty('email_verified');
      const identity = await t.db.query('select provider, subject from user_identities where user_id = $1', [user.id]);
      expect(identity.rows).toEqual([{ provider: 'microsoft', subject: claims.sub }]);
    });

    it('xms_edov as the string "1" counts too', async () => {
      work('walt@contoso.example', '1');
      await invite('walt@contoso.example');
      await expectSignedIn(await signIn('microsoft', 'walt@contoso.example'), 'walt@contoso.example');
      expect(s.microsoft.tokenCalls.at(-1)!.claims!.xms_edov).toBe('1');
    });

    it('a work account whose tenant set an address on a domain it never verified (xms_edov false) is refused, even for an existing account', async () => {
      // The account a tenant admin would take over by typing its owner's address on their own user.
      await invite('victim@example.com');
      const owner = await expectSignedIn(await signIn('google', 'victim@example.com'), 'victim@example.com');
      work('victim@example.com', false);
      const before = await snapshot();
      const refused = await signIn('microsoft', 'victim@example.com');
      expect([refused.status, refused.body.error]).toEqual([403, 'unverified_email']);
      expect(s.microsoft.tokenCalls.at(-1)!.claims!.xms_edov).toBe(false);
      expect(await snapshot()).toEqual(before);
      const links = await t.db.query(`select provider from user_identities where user_id = $1 order by 1`, [owner.user.id]);
      expect(links.rows).toEqual([{ provider: 'google' }]);
    });

    it('without the xms_edov optional claim in the app registration: work accounts are refused, personal accounts still get in', async () => {
      s.microsoft.setOptionalClaims([]);
      try {
        work('nora@fabrikam.example');
        await invite('nora@fabrikam.example');
        await invite('paula@outlook.example');
        const before = await snapshot();
        const refused = await signIn('microsoft', 'nora@fabrikam.example');
        expect([refused.status, refused.body.error]).toEqual([403, 'unverified_email']);
        expect(s.microsoft.tokenCalls.at(-1)!.claims).not.toHaveProperty('xms_edov');
        expect(await snapshot()).toEqual(before);
        await expectSignedIn(await signIn('microsoft', 'paula@outlook.example'), 'paula@outlook.example');
        expect(s.microsoft.tokenCalls.at(-1)!.claims).toMatchObject({ tid: MICROSOFT_CONSUMER_TENANT });
        expect(s.microsoft.tokenCalls.at(-1)!.claims).not.toHaveProperty('xms_edov');
      } finally {
        s.microsoft.setOptionalClaims(['xms_edov']);
      }
    });

    it('a work account already linked signs in by its subject even when its e-mail is no longer vouched for', async () => {
      const first = await expectSignedIn(await signIn('microsoft', 'wanda@contoso.example'), 'wanda@contoso.example');
      work('wanda@contoso.example', false);
      const again = await expectSignedIn(await signIn('microsoft', 'wanda@contoso.example'), 'wanda@contoso.example');
      expect(again.user.id).toBe(first.user.id);
    });

    it("a row on one tenant (its own issuer, not the template) signs in that tenant's people and refuses a token of another tenant", async () => {
      const tenant = s.microsoft.organizationTenant;
      const row = (base: string) => ({ base_url: `${base}/v2.0`, auth_url: `${base}/oauth2/v2.0/authorize`, token_url: `${base}/oauth2/v2.0/token` });
      expect((await putProvider('microsoft', row(`${s.microsoft.url}/${tenant}`))).status).toBe(200);
      try {
        work('tess@contoso.example', true);
        await invite('tess@contoso.example');
        await expectSignedIn(await signIn('microsoft', 'tess@contoso.example'), 'tess@contoso.example');
        // A personal account cannot sign in at a tenant's endpoint: Microsoft's page refuses it.
        const started = await startLogin('microsoft');
        await expect(oidcConsent(started.location, 'someone@outlook.example')).rejects.toThrow(/AADSTS50020/);
        // Discovery of this tenant names its issuer; a token from the personal-account tenant fails it.
        expect((await putProvider('microsoft', row(`${s.microsoft.url}/consumers`))).status).toBe(200);
        const personal = await startLogin('microsoft');
        const callback = await oidcConsent(personal.location, 'someone@outlook.example');
        expect((await putProvider('microsoft', row(`${s.microsoft.url}/${tenant}`))).status).toBe(200);
        const mismatched = await finish(callback, personal.cookie);
        expect([mismatched.status, mismatched.body.error]).toEqual([401, 'invalid_id_token']);
      } finally {
        expect((await putProvider('microsoft', s.providers.microsoft)).status).toBe(200);
      }
    });
  });

  // ---------- beta invitations and roles ----------

  describe('beta mode and roles', () => {
    it('an invited e-mail gets in; an existing user still gets in after the invitation is deleted', async () => {
      const email = 'invited.later@example.com';
      expect((await signIn('microsoft', email)).body.error).toBe('not_invited');
      await invite(email);
      const listed = (await (await api('/beta-invites', { token: adminToken })).json()) as { email: string; invited_by: string | null }[];
      expect(listed.find((i) => i.email === email)).toMatchObject({ email, invited_by: 'root@example.com' });

      const first = await expectSignedIn(await signIn('microsoft', email), email);
      expect(first.user.role).toBe('user');

      const removed = await api(`/beta-invites/${encodeURIComponent(email)}`, { method: 'DELETE', token: adminToken });
      expect(removed.status).toBe(204);
      expect(await count(`beta_invites where email = '${email}'`)).toBe(0);

      const again = await expectSignedIn(await signIn('microsoft', email), email);
      expect(again.user.id).toBe(first.user.id);
      // ...and with another provider that reports the same verified e-mail: linked, not duplicated.
      const viaGoogle = await expectSignedIn(await signIn('google', email), email);
      expect(viaGoogle.user.id).toBe(first.user.id);
      expect(await usersWithEmail(email)).toBe(1);
    });

    it('an account whose erasure is under way signs nobody in, by identity or by e-mail (409 account_being_erased)', async () => {
      const email = 'leaving@example.com';
      await invite(email);
      const first = await expectSignedIn(await signIn('google', email), email);
      const erase = await api('/api/users/me/erase', { method: 'POST', token: first.authToken, json: { confirm: 'ELIMINAR' } });
      expect(erase.status).toBe(202);
      await expectError(await api('/api/users/me', { token: first.authToken }), 401, 'unauthorized');
      // No worker in this app: the account stays marked until one erases it.
      const before = await snapshot();
      for (const provider of ['google', 'microsoft'] as const) {
        const refused = await signIn(provider, email);
        expect([provider, refused.status, refused.body.error]).toEqual([provider, 409, 'account_being_erased']);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('an ADMIN_EMAILS user gets in without an invitation and gets role admin', async () => {
      const result = await expectSignedIn(await signIn('google', 'Admin@Example.com'), 'admin@example.com');
      expect(result.user.role).toBe('admin');
      const response = await api('/beta-invites', { token: result.authToken });
      expect(response.status).toBe(200);
    });
  });

  // ---------- admin endpoints and sessions ----------

  describe('admin endpoints and sessions', () => {
    const adminCalls = () => [
      { method: 'GET', path: '/beta-invites' },
      { method: 'POST', path: '/beta-invites', json: { email: 'sneaky@example.com' } },
      { method: 'DELETE', path: '/beta-invites/octo%40example.com' },
      { method: 'GET', path: '/api/login-providers' },
      { method: 'POST', path: '/api/login-providers', json: { service_name: 'github' } },
      { method: 'PUT', path: `/api/login-providers/${providerIds.github}`, json: { service_name: 'github', app_secret: 'hijacked' } },
      { method: 'DELETE', path: `/api/login-providers/${providerIds.github}` },
    ];

    it('answer 401 without a token (or with a bad one) and 403 with a user token, changing nothing', async () => {
      const before = await snapshot();
      const secretBefore = (await t.db.query(`select app_secret_encrypted from login_providers where service_name = 'github'`)).rows[0];
      for (const call of adminCalls()) {
        await expectError(await api(call.path, { method: call.method, json: call.json }), 401, 'unauthorized');
        await expectError(
          await api(call.path, { method: call.method, json: call.json, headers: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` } }),
          401,
          'unauthorized',
        );
        await expectError(
          await api(call.path, { method: call.method, json: call.json, headers: { authorization: 'Basic cm9vdDpyb290' } }),
          401,
          'unauthorized',
        );
        await expectError(await api(call.path, { method: call.method, json: call.json, token: userToken }), 403, 'forbidden');
      }
      expect(await snapshot()).toEqual(before);
      expect((await t.db.query(`select app_secret_encrypted from login_providers where service_name = 'github'`)).rows[0]).toEqual(secretBefore);
      expect(await count(`beta_invites where email = 'sneaky@example.com'`)).toBe(0);
    });

    it('refuses expired and revoked sessions with 401', async () => {
      // Rows changed behind the app's back (the clock, another tool): seen once the process's
      // short session cache (SESSION_CACHE_MS) lets go of them.
      const expired = await seedSession('user', 'expiring');
      expect((await api('/api/users/me', { token: expired.token })).status).toBe(200);
      await t.db.query(`update sessions set expires_at = now() - interval '1 second' where id = $1`, [expired.sessionId]);
      await pollUntil(async () => (await api('/api/users/me', { token: expired.token })).status === 401, 'the expired session refused');
      await expectError(await api('/api/users/me', { token: expired.token }), 401, 'unauthorized');

      const revoked = await seedSession('admin', 'revokedadmin');
      expect((await api('/beta-invites', { token: revoked.token })).status).toBe(200);
      await t.db.query(`update sessions set revoked_at = now() where id = $1`, [revoked.sessionId]);
      await pollUntil(async () => (await api('/beta-invites', { token: revoked.token })).status === 401, 'the revoked session refused');
      await expectError(await api('/beta-invites', { token: revoked.token }), 401, 'unauthorized');
    });

    it('forgets a session at once when the app itself ends it, in this process and in another one', async () => {
      // A second web process on the same database and Redis (same QUEUE_PREFIX, so the same channels).
      const other = await startTestApp({ db: t.db, env: { QUEUE_PREFIX: t.queuePrefix } });
      try {
        const session = await seedSession('user', 'twoplaces');
        const inOther = () => other.fetch('/api/users/me', { headers: { authorization: `Bearer ${session.token}` } });
        expect((await api('/api/users/me', { token: session.token })).status).toBe(200);
        expect((await inOther()).status).toBe(200);
        // Logout here: refused here straight away (no waiting), and in the other process as soon as it hears of it.
        expect((await api('/api/auth/logout', { token: session.token, method: 'POST' })).status).toBeLessThan(300);
        await expectError(await api('/api/users/me', { token: session.token }), 401, 'unauthorized');
        await pollUntil(async () => (await inOther()).status === 401, 'the other process to refuse the session');
      } finally {
        // Not other.close(): the database and the Redis keys belong to the first app.
        await other.app.close();
      }
    });
  });

  // ---------- secrets at rest ----------

  describe('secrets at rest', () => {
    it('stores no provider secret in plaintext, answers the mask, and keeps the secret when the mask is sent back', async () => {
      const set = await putProvider('google', { app_secret: 'super-secret-value' });
      expect(set.status).toBe(200);
      expect(((await set.json()) as { app_secret: string }).app_secret).toBe(MASK);

      const rows = (await t.db.query('select * from login_providers')).rows;
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain('super-secret-value');
      for (const name of ['github', 'microsoft'] as const) expect(dump).not.toContain(s.providers[name].app_secret);
      const pemBody = s.appleKey.privateKeyPem
        .split('\n')
        .filter((line) => !line.startsWith('-----'))
        .join('');
      expect(dump).not.toContain(pemBody.slice(0, 40));
      expect(dump).not.toContain(s.credentials.apple.teamId + '","key_id');

      const listed = (await (await api('/api/login-providers', { token: adminToken })).json()) as { service_name: string; app_secret: string }[];
      expect(listed.map((r) => r.app_secret)).toEqual([MASK, MASK, MASK, MASK]);
      expect(JSON.stringify(listed)).not.toContain('super-secret-value');

      // Put the real secret back, then send the mask with another change: the secret is kept.
      expect((await putProvider('google', { app_secret: s.providers.google.app_secret })).status).toBe(200);
      const ciphertext = (await t.db.query(`select app_secret_encrypted from login_providers where service_name = 'google'`)).rows[0].app_secret_encrypted;
      const masked = await putProvider('google', { ...s.providers.google, app_secret: MASK, description: 'Edited by the admin' });
      expect(masked.status).toBe(200);
      expect(await masked.json()).toMatchObject({ app_secret: MASK, description: 'Edited by the admin' });
      expect((await t.db.query(`select app_secret_encrypted from login_providers where service_name = 'google'`)).rows[0].app_secret_encrypted).toBe(
        ciphertext,
      );
      const withoutField = await putProvider('google', { description: 'Edited again' });
      expect(withoutField.status).toBe(200);

      await invite('mask.kept@example.com');
      await expectSignedIn(await signIn('google', 'mask.kept@example.com'), 'mask.kept@example.com');
    });

    it('stores only the SHA-256 of session tokens', async () => {
      await invite('hash.check@example.com');
      const { authToken, user } = await expectSignedIn(await signIn('google', 'hash.check@example.com'), 'hash.check@example.com');
      const mine = await t.db.query('select token_hash from sessions where user_id = $1', [user.id]);
      expect(mine.rows).toEqual([{ token_hash: sha256(authToken) }]);
      const dump = JSON.stringify((await t.db.query('select * from sessions')).rows);
      expect(dump).not.toContain(authToken);
      expect(dump).not.toContain(Buffer.from(authToken, 'base64url').toString('hex'));
      expect(dump).not.toContain(Buffer.from(authToken, 'base64url').toString('base64'));
    });
  });

  // ---------- bad input ----------

  describe('bad input: 4xx JSON and nothing stored', () => {
    it('unknown providers and provider names outside [A-Za-z0-9_-]', async () => {
      const before = await snapshot();
      const unknown = await t.fetch('/login/myspace', { redirect: 'manual', headers: { accept: 'application/json' } });
      await expectError(unknown, 404, 'unknown_provider');
      expect(unknown.headers.getSetCookie()).toEqual([]);
      for (const path of ['/login/git%24hub', '/login/git%20hub', `/login/${'a'.repeat(65)}`, '/login/git%24hub/callback?code=a&state=b']) {
        const response = await t.fetch(path, { redirect: 'manual', headers: { accept: 'application/json' } });
        await expectError(response, 400, 'validation_failed');
      }
      for (const returnTo of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'dashboard', '/a b']) {
        const response = await t.fetch(`/login/github?returnTo=${encodeURIComponent(returnTo)}`, {
          redirect: 'manual',
          headers: { accept: 'application/json' },
        });
        await expectError(response, 400, 'validation_failed');
        expect(response.headers.getSetCookie()).toEqual([]);
      }
      const post = await t.fetch('/login/github/callback', { method: 'POST', body: new URLSearchParams({ code: 'a', state: 'b' }), redirect: 'manual' });
      await expectError(post, 404, 'unknown_provider'); // only Apple posts its answer
      expect(await snapshot()).toEqual(before);
    });

    it('beta invitations: invalid, oversized, wrongly typed e-mails and extra fields', async () => {
      const before = await snapshot();
      const bodies: unknown[] = [
        { email: 'not-an-email' },
        { email: 'a@' },
        { email: '@example.com' },
        { email: 'two words@example.com' },
        { email: '' },
        { email: `${'a'.repeat(290)}@example.com` },
        { email: 5 },
        { email: null },
        { email: ['x@example.com'] },
        {},
        [],
        'x@example.com',
        { email: 'extra@example.com', role: 'admin' },
      ];
      for (const json of bodies) await expectError(await api('/beta-invites', { token: adminToken, json }), 400);
      await expectError(await api('/beta-invites', { token: adminToken, json: { email: 'octo@example.com' } }), 409, 'already_invited');
      await expectError(await api(`/beta-invites/${'a'.repeat(300)}`, { method: 'DELETE', token: adminToken }), 400, 'validation_failed');
      await expectError(await api('/beta-invites/nobody%40example.com', { method: 'DELETE', token: adminToken }), 404, 'invite_not_found');
      expect(await snapshot()).toEqual(before);
      expect(await count(`beta_invites where email = 'extra@example.com'`)).toBe(0);
    });

    it('login providers: oversized fields, bad URLs, extra fields, unknown names, bad ids', async () => {
      const before = await snapshot();
      const rowBefore = (await t.db.query(`select * from login_providers where service_name = 'github'`)).rows[0];
      const bad: Record<string, unknown>[] = [
        { description: 'x'.repeat(3000) },
        { app_id: 'x'.repeat(501) },
        { base_url: 'javascript:alert(1)' },
        { auth_url: 'not a url' },
        { token_url: `https://example.com/${'x'.repeat(2000)}` },
        { scopes: 5 },
        { is_admin: true },
        { service_name: 'git$hub' },
        { service_name: 5 },
      ];
      for (const change of bad) await expectError(await putProvider('github', change), 400, 'validation_failed');
      await expectError(await putProvider('github', { service_name: 'myspace' }), 404, 'unknown_provider');
      await expectError(await putProvider('github', { service_name: 'google' }), 409, 'login_provider_exists');
      await expectError(await api('/api/login-providers', { token: adminToken, json: { service_name: 'github' } }), 409, 'login_provider_exists');
      await expectError(await api('/api/login-providers', { token: adminToken, json: { service_name: 'myspace' } }), 404, 'unknown_provider');
      await expectError(
        await api('/api/login-providers', { token: adminToken, json: { service_name: 'github', description: 'x'.repeat(3000) } }),
        400,
        'validation_failed',
      );
      for (const id of ['not-a-uuid', '123', `${providerIds.github}x`]) {
        await expectError(
          await api(`/api/login-providers/${id}`, { method: 'PUT', token: adminToken, json: { service_name: 'github' } }),
          400,
          'validation_failed',
        );
        await expectError(await api(`/api/login-providers/${id}`, { method: 'DELETE', token: adminToken }), 400, 'validation_failed');
      }
      await expectError(
        await api(`/api/login-providers/${randomUUID()}`, { method: 'PUT', token: adminToken, json: { service_name: 'github' } }),
        404,
        'login_provider_not_found',
      );
      await expectError(await api(`/api/login-providers/${randomUUID()}`, { method: 'DELETE', token: adminToken }), 404, 'login_provider_not_found');
      expect(await snapshot()).toEqual(before);
      expect((await t.db.query(`select * from login_providers where service_name = 'github'`)).rows[0]).toEqual(rowBefore);
    });

    it('usernames: too short, too long, with spaces, taken (case-insensitively); email cannot be changed', async () => {
      const me = await seedSession('user', 'renamer');
      const before = await snapshot();
      const rowBefore = (await t.db.query('select username, email, role from users where id = $1', [me.userId])).rows[0];
      for (const username of ['ab', '  a ', 'x'.repeat(33), 'has space', 'semi;colon', '<script>', '', 5, null]) {
        await expectError(await api('/api/users/me', { method: 'PATCH', token: me.token, json: { username } }), 400, 'validation_failed');
      }
      await expectError(await api('/api/users/me', { method: 'PATCH', token: me.token, json: { username: 'PLAINUSER' } }), 409, 'username_taken');
      await expectError(await api('/api/users/me', { method: 'PATCH', token: me.token, json: { username: 'x', email: 'evil@x' } }), 400, 'validation_failed');
      await expectError(
        await api('/api/users/me', { method: 'PATCH', token: me.token, json: { username: 'renamed', email: 'evil@x' } }),
        400,
        'validation_failed',
      );
      await expectError(
        await api('/api/users/me', { method: 'PATCH', token: me.token, json: { username: 'renamed', role: 'admin' } }),
        400,
        'validation_failed',
      );
      expect((await t.db.query('select username, email, role from users where id = $1', [me.userId])).rows[0]).toEqual(rowBefore);
      expect(await snapshot()).toEqual(before);

      const ok = await api('/api/users/me', { method: 'PATCH', token: me.token, json: { username: 'Renamed_1' } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ username: 'Renamed_1', email: 'renamer@example.com', role: 'user' });
      await expectError(await api('/api/users/me', { method: 'PATCH', token: userToken, json: { username: 'renamed_1' } }), 409, 'username_taken');
    });

    it('unsupported content types (415), bodies over 1 MB (413), malformed JSON (400)', async () => {
      const before = await snapshot();
      await expectError(
        await api('/beta-invites', { token: adminToken, body: '<email>x@example.com</email>', headers: { 'content-type': 'application/xml' } }),
        415,
        'unsupported_media_type',
      );
      await expectError(
        await api('/api/users/me', {
          method: 'PATCH',
          token: userToken,
          body: 'username=hacked',
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
        }),
        415,
        'unsupported_media_type',
      );
      // text/plain is parsed as a string, which the strict schema then refuses.
      await expectError(
        await api('/beta-invites', { token: adminToken, body: 'x@example.com', headers: { 'content-type': 'text/plain' } }),
        400,
        'validation_failed',
      );
      const big = JSON.stringify({ email: 'big@example.com', padding: 'x'.repeat(1024 * 1024) });
      await expectError(
        await api('/beta-invites', { token: adminToken, body: big, headers: { 'content-type': 'application/json' } }),
        413,
        'payload_too_large',
      );
      await expectError(
        await api('/api/login-providers', { token: adminToken, body: big, headers: { 'content-type': 'application/json' } }),
        413,
        'payload_too_large',
      );
      await expectError(
        await api('/beta-invites', { token: adminToken, body: '{"email":', headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_json',
      );
      expect(await snapshot()).toEqual(before);
    });
  });
});
