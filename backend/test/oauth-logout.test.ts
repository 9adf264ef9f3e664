import { randomBytes } from 'node:crypto';
import { freePort } from '@life/test-support';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { COMMANDS } from '../src/cli.js';
import { SigningKeysService } from '../src/modules/oauth-server/signing-keys.service.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, TEST_REDIS_URL, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

// OpenID Connect RP-Initiated Logout 1.0 (decision 0034): real PostgreSQL and Redis, real ID tokens.
const REDIRECT = 'http://127.0.0.1:7777/callback';
const AFTER_LOGOUT = 'https://agenda.example/signed-out';
const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(values).toString(),
});

describe('RP-initiated logout (end_session_endpoint)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  let app: Json;

  const json = async (response: Response) => (await response.json()) as Json;
  const adminJson = (path: string, method: string, body?: unknown) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(admin.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const createClient = async (input: Json = {}): Promise<Json> => {
    const response = await adminJson('/oauth_clients', 'POST', { name: 'Agenda Demo', redirect_uris: [REDIRECT], ...input });
    expect(response.status).toBe(201);
    return json(response);
  };
  /** What the sign-out page asks: GET /oauth/logout as JSON. */
  const endSession = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    t.fetch(`/oauth/logout?${new URLSearchParams(params)}`, { headers: { accept: 'application/json', ...headers } });
  const expectRefused = async (response: Response, text?: string) => {
    const body = await json(response);
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_request', error_description: expect.any(String), message: expect.any(String) });
    expect(body.redirect_to).toBeUndefined();
    expect(response.headers.get('location')).toBeNull();
    if (text) expect(body.message).toContain(text);
    return body;
  };

  /** A real ID token: consent through the API the consent page uses, then the token endpoint. */
  const tokensFor = async (client: Json): Promise<Json> => {
    const consent = await t.fetch('/oauth/authorize', {
      method: 'POST',
      headers: { ...bearer(person.token), 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid profile', state: 'st', action: 'allow' }),
    });
    const code = new URL((await json(consent)).redirect_to as string).searchParams.get('code')!;
    const exchange = await t.fetch(
      '/oauth/token',
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.client_id, client_secret: client.client_secret }),
    );
    const tokens = await json(exchange);
    expect(tokens.id_token).toEqual(expect.any(String));
    return tokens;
  };

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({ role: 'web', env: { PORT: String(port), APP_URL: `http://127.0.0.1:${port}` } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
    app = await createClient({ post_logout_redirect_uris: [AFTER_LOGOUT, 'http://127.0.0.1:7777/bye'] });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('is advertised in the OpenID and RFC 8414 metadata', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const meta = await json(await t.fetch(path));
      expect(meta.end_session_endpoint).toBe(`${t.url}/oauth/logout`);
    }
  });

  describe('post_logout_redirect_uris per client', () => {
    it('are stored, shown, replaced by PUT, and none by default', async () => {
      expect(app.post_logout_redirect_uris).toEqual([AFTER_LOGOUT, 'http://127.0.0.1:7777/bye']);
      const plain = await createClient();
      expect(plain.post_logout_redirect_uris).toEqual([]);
      const updated = await json(await adminJson(`/oauth_clients/${plain.id}`, 'PUT', { ...plain, post_logout_redirect_uris: ['https://x.example/out'] }));
      expect(updated.post_logout_redirect_uris).toEqual(['https://x.example/out']);
      // A PUT without the field keeps them.
      const kept = await json(await adminJson(`/oauth_clients/${plain.id}`, 'PUT', { name: 'Otra' }));
      expect(kept.post_logout_redirect_uris).toEqual(['https://x.example/out']);
      const listed = (await json(await adminJson('/oauth_clients', 'GET'))) as unknown as Json[];
      expect(listed.find((c) => c.id === plain.id)!.post_logout_redirect_uris).toEqual(['https://x.example/out']);
    });

    it('can be given to the CLI: client:create --post-logout-redirect-uri (repeatable), checked by the same rules', async () => {
      const env: Record<string, string> = {
        NODE_ENV: 'test',
        DATABASE_URL: t.db.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: t.queuePrefix,
        ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      };
      const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
      const printed: string[] = [];
      const log = console.log;
      Object.assign(process.env, env);
      console.log = (line: string) => void printed.push(line);
      const create = (...extra: string[]) =>
        COMMANDS['client:create']!.run([
          '--name',
          'Desde la CLI',
          '--public',
          '--redirect-uri',
          REDIRECT,
          ...extra.flatMap((uri) => ['--post-logout-redirect-uri', uri]),
        ]);
      try {
        await create('https://cli.example/out', 'http://127.0.0.1:9000/out');
        await expect(create('http://cli.example/out')).rejects.toThrow(/post_logout_redirect_uris/);
      } finally {
        console.log = log;
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
      expect(printed).toContainEqual(expect.stringContaining('post_logout_redirect_uris=https://cli.example/out,http://127.0.0.1:9000/out'));
      const clientId = printed.find((line) => line.startsWith('client_id='))!.slice('client_id='.length);
      const listed = (await json(await adminJson('/oauth_clients', 'GET'))) as unknown as Json[];
      expect(listed.find((c) => c.client_id === clientId)!.post_logout_redirect_uris).toEqual(['https://cli.example/out', 'http://127.0.0.1:9000/out']);
    });

    it('follow the redirect URI rules: https or loopback http, no fragment, up to 10', async () => {
      for (const bad of [['http://evil.example/out'], ['https://app.example/out#x'], ['/relative'], ['https://ü:p@app.example/'], ['x'.repeat(3000)]]) {
        const response = await adminJson('/oauth_clients', 'POST', { name: 'Mala', redirect_uris: [REDIRECT], post_logout_redirect_uris: bad });
        expect(response.status).toBe(400);
        expect((await json(response)).error).toBe('validation_failed');
      }
      const eleven = Array.from({ length: 11 }, (_, i) => `https://app.example/out/${i}`);
      expect((await adminJson('/oauth_clients', 'POST', { name: 'Mala', redirect_uris: [REDIRECT], post_logout_redirect_uris: eleven })).status).toBe(400);
      const ok = await createClient({ post_logout_redirect_uris: ['https://app.example/salida-ñ', 'http://localhost:3000/out', 'http://[::1]/out'] });
      expect(ok.post_logout_redirect_uris).toHaveLength(3);
    });
  });

  describe('id_token_hint', () => {
    it('a real ID token names the app; the registered URI comes back with state', async () => {
      const { id_token } = await tokensFor(app);
      const response = await endSession({ id_token_hint: id_token, post_logout_redirect_uri: AFTER_LOGOUT, state: 'af0ifjsldkj' });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await json(response)).toEqual({ client_id: app.client_id, client_name: 'Agenda Demo', redirect_to: `${AFTER_LOGOUT}?state=af0ifjsldkj` });
    });

    it('an expired one is accepted (the session may outlive it)', async () => {
      const keys = t.app.get(SigningKeysService);
      const hint = await keys.sign({ iss: t.url, aud: app.client_id, sub: person.id }, -3600);
      expect(decodeJwt(hint).exp).toBeLessThan(Date.now() / 1000);
      const body = await json(await endSession({ id_token_hint: hint, post_logout_redirect_uri: AFTER_LOGOUT }));
      expect(body).toEqual({ client_id: app.client_id, client_name: 'Agenda Demo', redirect_to: AFTER_LOGOUT });
    });

    it('a tampered one is refused and nothing redirects', async () => {
      const { id_token } = await tokensFor(app);
      const [header, payload, signature] = (id_token as string).split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Json;
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${signature}`;
      await expectRefused(await endSession({ id_token_hint: forged, post_logout_redirect_uri: AFTER_LOGOUT, state: 's' }), 'id_token_hint');
      const flipped = `${header}.${payload}.${signature!.slice(0, -4)}${signature!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      await expectRefused(await endSession({ id_token_hint: flipped, post_logout_redirect_uri: AFTER_LOGOUT }));
    });

    it('one signed by another key (even with our kid), unsigned, from another issuer or not a JWT is refused', async () => {
      const keys = t.app.get(SigningKeysService);
      const kid = await keys.signingKid();
      const { privateKey } = await generateKeyPair('RS256');
      const claims = { iss: t.url, aud: app.client_id, sub: person.id };
      const foreign = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).setIssuedAt().setExpirationTime('1h').sign(privateKey);
      await expectRefused(await endSession({ id_token_hint: foreign, post_logout_redirect_uri: AFTER_LOGOUT }));
      const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
      await expectRefused(await endSession({ id_token_hint: none, post_logout_redirect_uri: AFTER_LOGOUT }));
      const otherIssuer = await keys.sign({ ...claims, iss: 'https://evil.example' }, 600);
      await expectRefused(await endSession({ id_token_hint: otherIssuer, post_logout_redirect_uri: AFTER_LOGOUT }));
      const noAudience = await keys.sign({ iss: t.url, sub: person.id }, 600);
      await expectRefused(await endSession({ id_token_hint: noAudience }));
      for (const junk of ['not-a-jwt', 'ñandú.☃.💥', 'a.b.c', '...']) await expectRefused(await endSession({ id_token_hint: junk }));
    });

    it('must agree with client_id', async () => {
      const other = await createClient({ post_logout_redirect_uris: [AFTER_LOGOUT] });
      const { id_token } = await tokensFor(app);
      await expectRefused(await endSession({ id_token_hint: id_token, client_id: other.client_id, post_logout_redirect_uri: AFTER_LOGOUT }), 'client_id');
      const same = await json(await endSession({ id_token_hint: id_token, client_id: app.client_id }));
      expect(same).toEqual({ client_id: app.client_id, client_name: 'Agenda Demo', redirect_to: null });
    });

    it('signed by a retired key still in the JWKS is accepted; once the key is gone, refused', async () => {
      const keys = t.app.get(SigningKeysService);
      const { id_token } = await tokensFor(app);
      const old = decodeProtectedHeader(id_token as string).kid;
      await keys.rotate({ leadMs: 0 });
      await keys.refresh();
      expect(await keys.signingKid()).not.toBe(old);
      expect(((await json(await t.fetch('/oauth/jwks'))).keys as Json[]).map((key) => key.kid)).toContain(old);
      expect((await json(await endSession({ id_token_hint: id_token, post_logout_redirect_uri: AFTER_LOGOUT }))).redirect_to).toBe(AFTER_LOGOUT);
      await t.db.query('delete from oauth_signing_keys where kid = $1', [old]);
      await keys.refresh();
      await expectRefused(await endSession({ id_token_hint: id_token, post_logout_redirect_uri: AFTER_LOGOUT }));
    });
  });

  describe('post_logout_redirect_uri and state', () => {
    it('only an exactly registered URI of that client; never a redirect URI, another path or another client', async () => {
      const other = await createClient({ post_logout_redirect_uris: ['https://other.example/out'] });
      for (const uri of [
        'https://evil.example/out',
        REDIRECT,
        `${AFTER_LOGOUT}/`,
        `${AFTER_LOGOUT}?x=1`,
        'https://AGENDA.example/signed-out#frag',
        'https://other.example/out',
        'http://127.0.0.1:7777/bye/../evil',
      ]) {
        await expectRefused(await endSession({ client_id: app.client_id, post_logout_redirect_uri: uri, state: 's' }));
      }
      expect((await json(await endSession({ client_id: other.client_id, post_logout_redirect_uri: 'https://other.example/out' }))).redirect_to).toBe(
        'https://other.example/out',
      );
    });

    it('a loopback IP URI may change port (RFC 8252), like redirect URIs', async () => {
      const body = await json(await endSession({ client_id: app.client_id, post_logout_redirect_uri: 'http://127.0.0.1:51234/bye', state: 'x' }));
      expect(body.redirect_to).toBe('http://127.0.0.1:51234/bye?state=x');
    });

    it('needs the client identified; an unknown or disabled client is an error, never a redirect', async () => {
      await expectRefused(await endSession({ post_logout_redirect_uri: AFTER_LOGOUT, state: 's' }), 'client_id');
      await expectRefused(await endSession({ client_id: 'life_nope', post_logout_redirect_uri: AFTER_LOGOUT }));
      const disabled = await createClient({ post_logout_redirect_uris: [AFTER_LOGOUT] });
      await adminJson(`/oauth_clients/${disabled.id}`, 'PUT', { active: false });
      await expectRefused(await endSession({ client_id: disabled.client_id, post_logout_redirect_uri: AFTER_LOGOUT }));
      // A suspended app cannot use Life to send people to its addresses either (decision 0037).
      const suspended = await createClient({ post_logout_redirect_uris: [AFTER_LOGOUT] });
      expect((await adminJson(`/oauth_clients/${suspended.id}/suspend`, 'POST')).status).toBe(200);
      await expectRefused(await endSession({ client_id: suspended.client_id, post_logout_redirect_uri: AFTER_LOGOUT }));
    });

    it('echoes state exactly, encoded; without a URI there is nowhere to go', async () => {
      const state = 'ñ&x=1 ☃/?#';
      const body = await json(await endSession({ client_id: app.client_id, post_logout_redirect_uri: AFTER_LOGOUT, state }));
      expect(new URL(body.redirect_to as string).searchParams.get('state')).toBe(state);
      expect(new URL(body.redirect_to as string).origin + new URL(body.redirect_to as string).pathname).toBe(AFTER_LOGOUT);
      expect(await json(await endSession({ state: 'x' }))).toEqual({ client_id: null, client_name: null, redirect_to: null });
      expect(await json(await endSession({ client_id: app.client_id, logout_hint: 'someone', ui_locales: 'en' }))).toEqual({
        client_id: app.client_id,
        client_name: 'Agenda Demo',
        redirect_to: null,
      });
    });

    it('refuses malformed input with a 4xx in the asked language', async () => {
      await expectRefused(await endSession({ client_id: app.client_id, state: 'x'.repeat(5000) }));
      const repeated = await t.fetch(`/oauth/logout?client_id=${app.client_id}&client_id=${app.client_id}`, { headers: { accept: 'application/json' } });
      expect(repeated.status).toBe(400);
      await expectRefused(await endSession({ client_id: app.client_id, state: 'a\u0000b' }));
      const english = await json(await endSession({ post_logout_redirect_uri: AFTER_LOGOUT }, { 'accept-language': 'en' }));
      expect(english.message).toContain('needs it identified');
      const spanish = await json(await endSession({ post_logout_redirect_uri: AFTER_LOGOUT }));
      expect(spanish.message).toContain('hay que identificarla');
    });
  });

  describe('the endpoint itself', () => {
    it('a browser navigation gets the web app (the sign-out page)', async () => {
      const page = await t.fetch(`/oauth/logout?client_id=${app.client_id}`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('life-spa');
    });

    it('a form POST continues on the page with only the known parameters (303, on this site)', async () => {
      const response = await t.fetch('/oauth/logout', {
        ...form({ client_id: app.client_id, post_logout_redirect_uri: AFTER_LOGOUT, state: 'ñ st', other: 'dropped' }),
        redirect: 'manual',
      });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location')!, t.url);
      expect(location.origin + location.pathname).toBe(`${t.url}/oauth/logout`);
      expect(Object.fromEntries(location.searchParams)).toEqual({ client_id: app.client_id, post_logout_redirect_uri: AFTER_LOGOUT, state: 'ñ st' });
      const json415 = await t.fetch('/oauth/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"client_id":"x"}' });
      expect(json415.status).toBeGreaterThanOrEqual(400);
      expect(json415.status).toBeLessThan(500);
    });

    it('ending the Life session leaves the app its tokens and grant (a grant is consent, not a session)', async () => {
      const [someone] = await seedUsers(t.db, 1);
      const saved = person;
      person = someone!;
      try {
        const tokens = await tokensFor(app);
        const out = await t.fetch('/api/auth/logout', { method: 'POST', headers: bearer(someone!.token) });
        expect(out.status).toBe(204);
        expect((await t.fetch('/api/users/me', { headers: bearer(someone!.token) })).status).toBe(401);
        expect((await t.fetch('/api/v1/me', { headers: bearer(tokens.access_token as string) })).status).toBe(200);
      } finally {
        person = saved;
      }
    });
  });
});
