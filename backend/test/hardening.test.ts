import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { followAuthorize, startServiceStandIns, type ServiceStandIns } from '@life/test-support/standins/services';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Issue 18, points 6 and 8 (decision 0032), against the real app on PostgreSQL and Redis:
 * personal answers are not cached, the proxy keeps an encoded `?`/`#` in the path, a person does
 * not see the catalog's app configuration, look-alike usernames are refused, and in production
 * the sign-in cookie is always `Secure` and catalog URLs cannot point at private addresses.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'https://agenda.example/callback';
const json = async (response: Response) => (await response.json()) as Json;
const sendJson = (t: TestApp, path: string, method: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  t.fetch(path, { method, headers: { ...bearer(token), 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function expectError(response: Response, status: number, code: string): Promise<Json> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`Expected ${status} ${code}, got ${response.status}: ${text.slice(0, 400)}`);
  const body = JSON.parse(text) as Json;
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe('string');
  return body;
}

/** A provider API stand-in that answers with the path and query it was asked for, as it received them. */
async function echoServer(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=600' });
    res.end(JSON.stringify({ url: req.url, authorization: req.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('hardening (issue 18, points 8a-8e): real PostgreSQL + Redis, NODE_ENV=test', () => {
  let t: TestApp;
  let stand: ServiceStandIns;
  let echo: Awaited<ReturnType<typeof echoServer>>;
  let admin: SeededUser;
  let person: SeededUser;
  let appToken: string;

  const catalog = async (who: SeededUser) => (await json(await t.fetch('/api/external-services/all', { headers: bearer(who.token) }))) as unknown as Json[];

  beforeAll(async () => {
    [stand, echo, t] = await Promise.all([startServiceStandIns({ families: ['github'] }), echoServer(), startTestApp({ role: 'web' })]);
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
    // The github row served by its stand-in; the person connects it.
    const github = (await catalog(admin!)).find((service) => service.service_name === 'github')!;
    expect((await sendJson(t, `/api/external-services/${github.id}`, 'PUT', admin!.token, { ...github, ...stand.rows.github })).status).toBe(200);
    const auth = await json(await t.fetch('/api/external-services/github/auth', { method: 'POST', headers: bearer(person!.token) }));
    const target = await followAuthorize(auth.auth_url as string);
    expect((await t.fetch(`/callback/github?${target.searchParams}`, { headers: { ...bearer(person!.token), accept: 'application/json' } })).status).toBe(200);
    // Its API now answers at the echo stand-in (set before any proxy call: the proxy remembers a row's API base for a while).
    const connected = (await catalog(admin!)).find((service) => service.service_name === 'github')!;
    expect((await sendJson(t, `/api/external-services/${github.id}`, 'PUT', admin!.token, { ...connected, base_url: `${echo.url}/api/v3` })).status).toBe(200);
    // An app the person allowed, with service:github.
    const created = await sendJson(t, '/oauth_clients', 'POST', admin!.token, {
      name: 'Agenda',
      redirect_uris: [REDIRECT],
      allowed_scopes: ['openid', 'profile', 'service:github'],
    });
    expect(created.status).toBe(201);
    const app = await json(created);
    const decided = await json(
      await sendJson(t, '/oauth/authorize', 'POST', person!.token, {
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        scope: 'openid profile service:github',
        state: 'st',
        action: 'allow',
      }),
    );
    const code = new URL(decided.redirect_to as string).searchParams.get('code')!;
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
        }),
      }),
    );
    appToken = tokens.access_token as string;
    expect(appToken).toEqual(expect.any(String));
  });

  afterAll(async () => {
    await t?.close();
    await stand?.close();
    await echo?.close();
  });

  describe('8a: Cache-Control no-store on every answer that depends on the session or an app token', () => {
    it('session, admin and app answers, the consent JSON and userinfo carry no-store', async () => {
      const personal: [string, RequestInit][] = [
        ['/api/users/me', { headers: bearer(person.token) }],
        ['/api/users/me/apps', { headers: bearer(person.token) }],
        ['/api/external-services/all', { headers: bearer(person.token) }],
        ['/api/login-providers', { headers: bearer(admin.token) }],
        ['/oauth_clients', { headers: bearer(admin.token) }],
        ['/api/v1/me', { headers: bearer(appToken) }],
        ['/api/v1/services', { headers: bearer(appToken) }],
        ['/oauth/userinfo', { headers: bearer(appToken) }],
        ['/api/v1/services/github/proxy/user', { headers: bearer(appToken) }],
        [
          `/oauth/authorize?response_type=code&client_id=nobody&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s`,
          { headers: { accept: 'application/json' } },
        ],
      ];
      for (const [path, init] of personal) {
        const response = await t.fetch(path, init);
        expect([path, response.status < 500, response.headers.get('cache-control')]).toEqual([path, true, 'no-store']);
      }
    });

    it('public answers keep their own caching (site, JWKS, discovery, hashed assets)', async () => {
      for (const path of ['/api/site', '/oauth/jwks', '/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
        const response = await t.fetch(path);
        expect([path, response.status, response.headers.get('cache-control')]).toEqual([path, 200, null]);
      }
      const asset = await t.fetch('/assets/app-abc123.js');
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    });
  });

  describe('8b: the proxy keeps an encoded ? or # in the path', () => {
    it('reaches the provider still encoded, as part of the path, with the real query string after it', async () => {
      const response = await t.fetch('/api/v1/services/github/proxy/repos/o/r/contents/a%3Fb%23c.md?ref=main&q=%3F', { headers: bearer(appToken) });
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.url).toBe('/api/v3/repos/o/r/contents/a%3Fb%23c.md?ref=main&q=%3F');
      expect(body.authorization).toMatch(/^Bearer /);
      // The provider's own caching is not passed on.
      expect(response.headers.get('cache-control')).toBe('no-store');
      const plain = await json(await t.fetch('/api/v1/services/github/proxy/user?x=1', { headers: bearer(appToken) }));
      expect(plain.url).toBe('/api/v3/user?x=1');
    });

    it('still refuses paths that climb out of the API base, encoded or not, with a 400 JSON answer', async () => {
      const before = echo.seen.length;
      // (fetch itself resolves a dotted `%2e%2e` segment before sending: the unit spec covers those.)
      for (const path of ['..%2f..%2fadmin', 'a/..%2F..%2F..%2Fx', '%5c..%5cadmin']) {
        const response = await t.fetch(`/api/v1/services/github/proxy/${path}`, { headers: bearer(appToken) });
        const body = await json(response);
        expect([path, response.status, body.error, typeof body.message]).toEqual([path, 400, 'invalid_path', 'string']);
      }
      // Broken percent-encoding: the router's own 400 JSON.
      const broken = await t.fetch('/api/v1/services/github/proxy/%E0%A4%A', { headers: bearer(appToken) });
      expect(broken.status).toBe(400);
      expect(typeof (await json(broken)).message).toBe('string');
      expect(echo.seen.length).toBe(before);
    });
  });

  describe('8c: a catalog row’s app configuration only for admins', () => {
    it('a person’s list has no app ids, extra headers or parameters; an admin’s has them', async () => {
      const notion = (await catalog(admin)).find((service) => service.service_name === 'notion')!;
      expect(
        (
          await sendJson(t, `/api/external-services/${notion.id}`, 'PUT', admin.token, {
            ...notion,
            app_id: 'notion-app-id-123',
            extra_headers: { 'Notion-Version': '2022-06-28', 'X-App-Key': 'k-secret-ish' },
            extra_auth_params: { owner: 'user' },
            api_key_header: 'X-Api-Key',
            api_key: 'api-key-value',
          })
        ).status,
      ).toBe(200);
      const mine = await catalog(person);
      for (const row of mine) {
        expect([row.service_name, row.app_id, row.extra_headers, row.extra_auth_params, row.api_key_header, row.api_key, row.app_secret]).toEqual([
          row.service_name,
          null,
          {},
          {},
          null,
          '',
          '',
        ]);
      }
      const text = JSON.stringify(mine);
      expect(text).not.toContain('notion-app-id-123');
      expect(text).not.toContain('k-secret-ish');
      // What the dashboard shows is still there.
      const personNotion = mine.find((service) => service.service_name === 'notion')!;
      expect(personNotion).toMatchObject({ status: notion.status, description: notion.description, unavailable_reason: null });
      expect(mine.find((service) => service.service_name === 'github')).toMatchObject({ connected: true });

      const adminNotion = (await catalog(admin)).find((service) => service.service_name === 'notion')!;
      expect(adminNotion).toMatchObject({
        app_id: 'notion-app-id-123',
        extra_headers: { 'Notion-Version': '2022-06-28', 'X-App-Key': 'k-secret-ish' },
        extra_auth_params: { owner: 'user' },
        api_key_header: 'X-Api-Key',
        api_key: '********',
      });
    });
  });

  describe('8d: private and loopback URLs are allowed outside production', () => {
    it('NODE_ENV=test takes a private https base_url (the stand-ins listen on 127.0.0.1 anyway)', async () => {
      const youtube = (await catalog(admin)).find((service) => service.service_name === 'youtube')!;
      expect((await sendJson(t, `/api/external-services/${youtube.id}`, 'PUT', admin.token, { ...youtube, base_url: 'https://10.0.0.5/api' })).status).toBe(
        200,
      );
    });
  });

  describe('8e: usernames that mix scripts are refused', () => {
    const rename = (username: string, language = 'es') => sendJson(t, '/api/users/me', 'PATCH', person.token, { username }, { 'accept-language': language });

    it('a Cyrillic "а" among Latin letters, Greek with Latin, Arabic digits after Latin: 400 with the reason in the person’s language', async () => {
      const spanish = await expectError(await rename('\u0430dmin'), 400, 'validation_failed');
      expect(spanish.details).toEqual([
        {
          path: 'body.username',
          message:
            'El usuario no puede mezclar alfabetos (por ejemplo, letras latinas y cirílicas): usa uno solo. En japonés, chino y coreano se admite además el alfabeto latino.',
        },
      ]);
      const english = await expectError(await rename('p\u0430ypal', 'en'), 400, 'validation_failed');
      expect(english.details[0].message).toBe(
        'The username cannot mix alphabets (for example Latin and Cyrillic letters): use just one. Japanese, Chinese and Korean may also use Latin letters.',
      );
      for (const language of ['fr', 'de', 'it', 'pt', 'ja', 'zh']) {
        const body = await expectError(await rename('\u0430dmin', language), 400, 'validation_failed');
        expect([language, body.details[0].message]).not.toEqual([language, spanish.details[0].message]);
      }
      for (const name of ['\u0395\u03bb\u03ad\u03bd\u03b7a', 'user\u0663', '\u0645\u062d\u0645\u062fa'])
        await expectError(await rename(name), 400, 'validation_failed');
      const { rows } = await t.db.query<{ username: string }>('select username from users where id = $1', [person.id]);
      expect(rows[0]!.username).toBe(person.username);
    });

    it('full-width and mathematical letters that read as another name are refused, in the person’s language', async () => {
      for (const name of ['\uff41\uff44\uff4d\uff49\uff4e', '\u{1d5ba}\u{1d5bd}\u{1d5c6}\u{1d5c2}\u{1d5c7}', 'admin\u2160']) {
        const body = await expectError(await rename(name), 400, 'validation_failed');
        expect([name, body.details]).toEqual([
          name,
          [
            {
              path: 'body.username',
              message: 'El usuario no puede llevar letras de formas especiales (de ancho completo, matemáticas o similares): escríbelo con letras normales.',
            },
          ],
        ]);
      }
      const english = await expectError(await rename('\uff41\uff44\uff4d\uff49\uff4e', 'en'), 400, 'validation_failed');
      expect(english.details[0].message).toBe(
        'The username cannot use letters in special forms (full-width, mathematical and the like): type it with ordinary letters.',
      );
      const { rows } = await t.db.query<{ username: string }>('select username from users where id = $1', [person.id]);
      expect(rows[0]!.username).not.toMatch(/[\uff00-\uffef]/);
    });

    it('one script, or Latin with Japanese, Chinese or Korean writing, is accepted', async () => {
      for (const name of ['José.María', 'админ', 'Ελένη', '山田タロウ', 'Tanaka田中さん', 'wang王ㄅ', 'kim김철수', 'محمد_1']) {
        const response = await rename(name);
        expect([name, response.status]).toEqual([name, 200]);
        expect((await json(response)).username).toBe(name);
      }
    });
  });
});

describe('hardening in production (issue 18, points 6 and 8d): NODE_ENV=production, APP_URL=https://…', () => {
  let t: TestApp;
  let admin: SeededUser;

  beforeAll(async () => {
    // TRUST_PROXY unset: behind the TLS-terminating proxy every request looks like plain http.
    t = await startTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://life.example' } });
    [admin] = await seedUsers(t.db, 1, 'admin');
  });

  afterAll(async () => {
    await t?.close();
  });

  const providers = async () => (await json(await t.fetch('/api/login-providers', { headers: bearer(admin.token) }))) as unknown as Json[];

  it('6: the sign-in cookie is Secure (and HttpOnly, SameSite=Lax, /login), when set and when cleared, though the request came over http', async () => {
    const github = (await providers()).find((provider) => provider.service_name === 'github')!;
    expect((await sendJson(t, `/api/login-providers/${github.id}`, 'PUT', admin.token, { ...github, app_id: 'Iv1.production-app' })).status).toBe(200);
    for (const headers of [{ 'x-forwarded-proto': 'https' }, {}]) {
      const started = await t.fetch('/login/github', { redirect: 'manual', headers });
      expect(started.status).toBe(302);
      expect(new URL(started.headers.get('location')!).origin).toBe('https://github.com');
      const cookie = started.headers.getSetCookie().find((line) => line.startsWith('life_login='))!;
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).toMatch(/;\s*Path=\/login/);
    }
    const finished = await t.fetch('/login/github/callback?code=abc&state=never-issued', {
      headers: { accept: 'application/json', 'x-forwarded-proto': 'https' },
    });
    await expectError(finished, 400, 'invalid_state');
    const cleared = finished.headers.getSetCookie().find((line) => line.startsWith('life_login='))!;
    expect(cleared).toMatch(/;\s*Secure/i);
    // Every cookie this app sets is Secure here.
    for (const line of [...finished.headers.getSetCookie()]) expect(line).toMatch(/;\s*Secure/i);
  });

  it('8d: catalog and login provider URLs on loopback or private addresses → 400 private_service_url', async () => {
    const rows = (await json(await t.fetch('/api/external-services/all', { headers: bearer(admin.token) }))) as unknown as Json[];
    const youtube = rows.find((service) => service.service_name === 'youtube')!;
    const put = (body: Json, language = 'es') => sendJson(t, `/api/external-services/${youtube.id}`, 'PUT', admin.token, body, { 'accept-language': language });
    for (const [field, url] of [
      ['base_url', 'https://10.0.0.5/api'],
      ['base_url', 'https://127.0.0.1/api'],
      ['token_url', 'https://192.168.1.20/token'],
      ['auth_url', 'https://172.20.0.1/auth'],
      ['user_url', 'https://169.254.169.254/latest/meta-data'],
      ['revoke_url', 'https://[::1]/revoke'],
      ['account_url', 'https://[fd00::1]/account'],
      ['base_url', 'https://[fe80::1]/api'],
      ['base_url', 'https://0.0.0.0/api'],
      ['base_url', 'https://localhost/api'],
      ['base_url', 'https://api.localhost/api'],
      ['base_url', 'https://2130706433/api'],
      ['base_url', 'https://[::ffff:127.0.0.1]/api'],
      ['redirect_url', 'https://10.1.1.1/callback/youtube'],
    ] as const) {
      const body = await expectError(await put({ ...youtube, [field]: url }), 400, 'private_service_url');
      expect([url, body.message]).toEqual([
        url,
        `En producción, ${field} no puede apuntar a una dirección local o privada (127.0.0.1, 10.x, 192.168.x, localhost…); ALLOW_PRIVATE_SERVICE_URLS=true lo permite.`,
      ]);
    }
    const english = await expectError(await put({ ...youtube, base_url: 'https://10.0.0.5/api' }, 'en'), 400, 'private_service_url');
    expect(english.message).toBe(
      'In production, base_url cannot point at a local or private address (127.0.0.1, 10.x, 192.168.x, localhost…); ALLOW_PRIVATE_SERVICE_URLS=true allows it.',
    );
    const stored = await t.db.query<{ base_url: string }>('select base_url from external_services where id = $1', [youtube.id]);
    expect(stored.rows[0]!.base_url).toBe(youtube.base_url);
    // Public addresses, including ones that merely look near (172.32/16, a name containing "localhost"), are fine.
    for (const url of ['https://www.googleapis.com/youtube/v3', 'https://172.32.0.1/api', 'https://localhost.example.com/api']) {
      expect([url, (await put({ ...youtube, base_url: url })).status]).toEqual([url, 200]);
    }

    const google = (await providers()).find((provider) => provider.service_name === 'google')!;
    const putProvider = (body: Json) => sendJson(t, `/api/login-providers/${google.id}`, 'PUT', admin.token, body);
    for (const field of ['base_url', 'auth_url', 'token_url', 'user_url', 'redirect_url']) {
      await expectError(await putProvider({ ...google, [field]: 'https://10.9.8.7/x' }), 400, 'private_service_url');
    }
    expect((await putProvider({ ...google, token_url: 'https://oauth2.googleapis.com/token' })).status).toBe(200);
  });

  it('8d: ALLOW_PRIVATE_SERVICE_URLS=true lets production take them', async () => {
    const allowed = await startTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://life.example', ALLOW_PRIVATE_SERVICE_URLS: 'true' } });
    try {
      const [owner] = await seedUsers(allowed.db, 1, 'admin');
      const rows = (await json(await allowed.fetch('/api/external-services/all', { headers: bearer(owner!.token) }))) as unknown as Json[];
      const youtube = rows.find((service) => service.service_name === 'youtube')!;
      const response = await sendJson(allowed, `/api/external-services/${youtube.id}`, 'PUT', owner!.token, { ...youtube, base_url: 'https://10.0.0.5/api' });
      expect(response.status).toBe(200);
      // Plain http stays refused in production (decision 0026).
      await expectError(
        await sendJson(allowed, `/api/external-services/${youtube.id}`, 'PUT', owner!.token, { ...youtube, base_url: 'http://127.0.0.1:9999/api' }),
        400,
        'insecure_service_url',
      );
    } finally {
      await allowed.close();
    }
  });
});
