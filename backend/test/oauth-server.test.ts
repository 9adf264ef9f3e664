import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { EntityManager } from '@mikro-orm/postgresql';
import { freePort } from '@life/test-support';
import { followAuthorize, startServiceStandIns, type ServiceStandIns } from '@life/test-support/standins/services';
import { ExpiredTokensSweeper } from '../src/modules/oauth-server/expired-tokens.sweeper.js';
import { RefreshGraceSweeper } from '../src/modules/oauth-server/refresh-grace.sweeper.js';
import { TokenStore } from '../src/modules/oauth-server/token-store.service.js';
import { SigningKeysService } from '../src/modules/oauth-server/signing-keys.service.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'http://127.0.0.1:7777/callback';
const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(values).toString(),
});
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe('authorization server (real PostgreSQL + Redis; openid-client as the outside client)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  let stand: ServiceStandIns;

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

  /** The consent POST the SPA makes for a signed-in person; returns the URL the browser would go to. */
  const consent = async (who: SeededUser, params: Record<string, string>, action: 'allow' | 'deny' = 'allow'): Promise<URL> => {
    const response = await t.fetch('/oauth/authorize', {
      method: 'POST',
      headers: { ...bearer(who.token), 'content-type': 'application/json' },
      body: JSON.stringify({ ...params, action }),
    });
    const body = await json(response);
    expect([response.status, body.error]).toEqual([200, undefined]);
    return new URL(body.redirect_to as string);
  };

  const config = async (clientId: string, auth: client.ClientAuth) =>
    client.discovery(new URL(t.url), clientId, undefined, auth, { execute: [client.allowInsecureRequests] });

  /** A code for a confidential client without PKCE (the spec's Autorizar shape), exchanged by hand. */
  const codeFor = async (app: Json, scope = 'openid profile', extra: Record<string, string> = {}) => {
    const back = await consent(person, { client_id: app.client_id, redirect_uri: REDIRECT, scope, state: 'st', ...extra });
    return back.searchParams.get('code')!;
  };
  const exchange = (app: Json, code: string, extra: Record<string, string> = {}) =>
    t.fetch(
      '/oauth/token',
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret, ...extra }),
    );
  const tokenCount = async () => Number((await t.db.query<{ n: string }>('select count(*) as n from oauth_tokens')).rows[0]!.n);

  beforeAll(async () => {
    stand = await startServiceStandIns({ families: ['github'] });
    const port = await freePort();
    t = await startTestApp({ role: 'web', env: { PORT: String(port), APP_URL: `http://127.0.0.1:${port}` } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await t?.close();
    await stand?.close();
  });

  describe('discovery', () => {
    it('publishes RFC 8414 and OpenID metadata: code only, S256 only, iss in responses', async () => {
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        const meta = await json(await t.fetch(path));
        expect(meta.issuer).toBe(t.url);
        expect(meta.token_endpoint).toBe(`${t.url}/oauth/token`);
        expect(meta.response_types_supported).toEqual(['code']);
        expect(meta.code_challenge_methods_supported).toEqual(['S256']);
        expect(meta.grant_types_supported).not.toContain('password');
        expect(meta.grant_types_supported).not.toContain('implicit');
        expect(meta.authorization_response_iss_parameter_supported).toBe(true);
      }
      const jwks = await json(await t.fetch('/oauth/jwks'));
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(jwks.keys[0].d).toBeUndefined();
    });
  });

  describe('client applications', () => {
    it('shows the secret once, stores only its hash, and never lists it', async () => {
      const app = await createClient({ description: 'Una app de prueba' });
      expect(app.client_secret).toMatch(/^lcs_/);
      const row = (await t.db.query<Json>('select * from oauth_clients where id = $1', [app.id])).rows[0]!;
      expect(row.client_secret_hash).toBe(createHash('sha256').update(app.client_secret).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(app.client_secret);
      const listed = await json(await adminJson('/oauth_clients', 'GET'));
      expect(JSON.stringify(listed)).not.toContain(app.client_secret);
      expect((listed as unknown as Json[]).find((c) => c.id === app.id)).toMatchObject({ name: 'Agenda Demo', active: true, has_secret: true });
    });

    it('takes the full object on PUT, ignoring read-only fields, and refuses a non-https redirect URI', async () => {
      const app = await createClient();
      const response = await adminJson(`/oauth_clients/${app.id}`, 'PUT', {
        ...app,
        client_id: 'hijack',
        client_secret: 'x',
        name: 'Renombrada',
        active: false,
      });
      const body = await json(response);
      expect([response.status, body.name, body.client_id, body.active]).toEqual([200, 'Renombrada', app.client_id, false]);
      const bad = await adminJson(`/oauth_clients/${app.id}`, 'PUT', { ...app, redirect_uri: 'http://evil.example/cb' });
      expect(bad.status).toBe(400);
      expect((await json(bad)).details[0].message).toContain('https');
    });

    it('rotates a secret: the old one stops working at once', async () => {
      const app = await createClient();
      const rotation = await adminJson(`/oauth_clients/${app.id}/secret`, 'POST');
      const rotated = await json(rotation);
      expect(rotation.status).toBe(200);
      expect(rotated.client_secret).toMatch(/^lcs_/);
      expect(rotated.client_secret).not.toBe(app.client_secret);
      const old = await t.fetch('/oauth/token', {
        ...form({ grant_type: 'client_credentials' }),
        headers: { ...form({}).headers, authorization: basic(app.client_id, app.client_secret) },
      });
      expect(old.status).toBe(401);
      const fresh = await t.fetch('/oauth/token', {
        ...form({ grant_type: 'client_credentials' }),
        headers: { ...form({}).headers, authorization: basic(app.client_id, rotated.client_secret) },
      });
      expect(fresh.status).toBe(200);
    });
  });

  describe('authorization endpoint', () => {
    it('describes the request in Spanish for the consent screen, without a bearer token', async () => {
      const app = await createClient();
      const response = await t.fetch(`/oauth/authorize?client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=read&state=appconnect`, {
        headers: { accept: 'application/json' },
      });
      const body = await json(response);
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ client_name: 'Agenda Demo', scope: 'read', state: 'appconnect' });
      expect(body.scopes[0].description).toBe('Ver tu perfil básico y qué servicios tienes conectados');
    });

    it('gives the consent page to a browser navigation', async () => {
      const response = await t.fetch('/oauth/authorize?client_id=x', { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('life-spa');
    });

    it.each([
      ['an unknown client', (_app: Json) => `client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}`, 'invalid_client'],
      [
        'a redirect URI that does not match',
        (app: Json) => `client_id=${app.client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
        'invalid_request',
      ],
      ['an unknown scope', (app: Json) => `client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=admin`, 'invalid_scope'],
      [
        'a scope the app may not ask for',
        (app: Json) => `client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=service:github`,
        'invalid_scope',
      ],
      [
        'the implicit grant',
        (app: Json) => `client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=token`,
        'unsupported_response_type',
      ],
      [
        'plain PKCE',
        (app: Json) => `client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=plain`,
        'invalid_request',
      ],
      ['a repeated parameter', (app: Json) => `client_id=${app.client_id}&client_id=${app.client_id}`, 'invalid_request'],
    ])('refuses %s with an error on the page, never a redirect', async (what, query, error) => {
      const app = await createClient();
      // JSON cannot repeat a key: the POST side of that case sends an array instead.
      const postBody = (app: Json) =>
        what === 'a repeated parameter' ? { client_id: [app.client_id, app.client_id] } : Object.fromEntries(new URLSearchParams(query(app)));
      for (const method of ['GET', 'POST'] as const) {
        const response =
          method === 'GET'
            ? await t.fetch(`/oauth/authorize?${query(app)}`, { headers: { accept: 'application/json' }, redirect: 'manual' })
            : await t.fetch('/oauth/authorize', {
                method: 'POST',
                redirect: 'manual',
                headers: { ...bearer(person.token), 'content-type': 'application/json' },
                body: JSON.stringify({ ...postBody(app), action: 'allow' }),
              });
        const body = await json(response);
        expect([method, response.status, body.error, response.headers.get('location')]).toEqual([method, 400, error, null]);
        expect(body.redirect_to).toBeUndefined();
        expect(typeof body.error_description).toBe('string');
      }
    });

    it('requires PKCE from public clients', async () => {
      const app = await createClient({ client_type: 'public' });
      expect(app.client_secret).toBeNull();
      const response = await t.fetch(`/oauth/authorize?client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}`, {
        headers: { accept: 'application/json' },
      });
      expect(response.status).toBe(400);
      expect((await json(response)).message).toContain('PKCE');
    });

    it('refuses an inactive client at authorize and at the token endpoint', async () => {
      const app = await createClient();
      const code = await codeFor(app);
      await adminJson(`/oauth_clients/${app.id}`, 'PUT', { ...app, active: false });
      const info = await t.fetch(`/oauth/authorize?client_id=${app.client_id}`, { headers: { accept: 'application/json' } });
      expect([info.status, (await json(info)).error]).toEqual([400, 'invalid_client']);
      const token = await exchange(app, code);
      expect([token.status, (await json(token)).error]).toEqual([400, 'invalid_client']);
    });

    it('denies with error=access_denied, state and iss; lets a loopback redirect use any port', async () => {
      const app = await createClient();
      const denied = await consent(person, { client_id: app.client_id, redirect_uri: REDIRECT, state: 'xyz' }, 'deny');
      expect(denied.origin + denied.pathname).toBe(REDIRECT);
      expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: 'access_denied', state: 'xyz', iss: t.url });
      const otherPort = await consent(person, { client_id: app.client_id, redirect_uri: 'http://127.0.0.1:9999/callback', state: 's' });
      expect(otherPort.port).toBe('9999');
      expect(otherPort.searchParams.get('code')).toMatch(/^lac_/);
    });
  });

  describe('the whole flow through openid-client', () => {
    it('public client: discovery, PKCE, consent, code, id_token, userinfo, refresh, introspection (by a confidential app), revocation', async () => {
      const app = await createClient({ client_type: 'public', name: 'App Pública' });
      const cfg = await config(app.client_id, client.None());
      const verifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: REDIRECT,
        scope: 'openid profile email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        nonce,
        state,
      });
      expect(url.origin + url.pathname).toBe(`${t.url}/oauth/authorize`);
      const info = await json(await t.fetch(`/oauth/authorize${url.search}`, { headers: { accept: 'application/json' } }));
      expect(info.client_name).toBe('App Pública');

      const back = await consent(person, Object.fromEntries(url.searchParams));
      expect(back.searchParams.get('iss')).toBe(t.url);
      const tokens = await client.authorizationCodeGrant(cfg, back, {
        pkceCodeVerifier: verifier,
        expectedNonce: nonce,
        expectedState: state,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ sub: person.id, aud: app.client_id, iss: t.url, email: person.email, preferred_username: person.username });
      expect(tokens.access_token).toMatch(/^lat_/);
      expect(tokens.refresh_token).toMatch(/^lrt_/);

      const userinfo = await client.fetchUserInfo(cfg, tokens.access_token, person.id);
      expect(userinfo).toMatchObject({ sub: person.id, email: person.email, preferred_username: person.username });

      const refreshed = await client.refreshTokenGrant(cfg, tokens.refresh_token!);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

      const rows = (await t.db.query<Json>('select * from oauth_tokens where user_id = $1', [person.id])).rows;
      expect(JSON.stringify(rows)).not.toContain(tokens.access_token);
      expect(JSON.stringify(rows)).not.toContain(refreshed.refresh_token);

      await client.tokenRevocation(cfg, refreshed.refresh_token!);
      const me = await t.fetch('/api/v1/me', { headers: bearer(refreshed.access_token) });
      expect(me.status).toBe(401);
      expect(me.headers.get('www-authenticate')).toContain('invalid_token');
    });

    it('confidential client: client_secret_basic code exchange, introspection, client_credentials', async () => {
      const app = await createClient({ name: 'App Confidencial' });
      const cfg = await config(app.client_id, client.ClientSecretBasic(app.client_secret));
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: REDIRECT,
        scope: 'openid read',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const back = await consent(person, Object.fromEntries(url.searchParams));
      const tokens = await client.authorizationCodeGrant(cfg, back, { pkceCodeVerifier: verifier, idTokenExpected: true });
      const active = await client.tokenIntrospection(cfg, tokens.access_token);
      expect(active).toMatchObject({ active: true, client_id: app.client_id, sub: person.id, scope: 'openid read', token_type: 'Bearer' });
      expect(await client.tokenIntrospection(cfg, 'lat_unknown')).toEqual({ active: false });

      const machine = await client.clientCredentialsGrant(cfg);
      expect(machine.access_token).toMatch(/^lat_/);
      expect(machine.refresh_token).toBeUndefined();
      expect(machine.id_token).toBeUndefined();
      expect((await t.fetch('/api/v1/me', { headers: bearer(machine.access_token) })).status).toBe(401);

      // Another app cannot learn anything about this app's tokens.
      const other = await createClient();
      const otherCfg = await config(other.client_id, client.ClientSecretPost(other.client_secret));
      expect(await client.tokenIntrospection(otherCfg, tokens.access_token)).toEqual({ active: false });
    });
  });

  describe('RFC 9700 checklist', () => {
    it('refuses a code_verifier when no challenge was sent (PKCE downgrade)', async () => {
      const app = await createClient();
      const code = await codeFor(app);
      const response = await exchange(app, code, { code_verifier: client.randomPKCECodeVerifier() });
      expect([response.status, (await json(response)).error]).toEqual([400, 'invalid_grant']);
    });

    it('refuses a wrong code_verifier', async () => {
      const app = await createClient({ client_type: 'public' });
      const verifier = client.randomPKCECodeVerifier();
      const back = await consent(person, { client_id: app.client_id, redirect_uri: REDIRECT, code_challenge: s256(verifier), code_challenge_method: 'S256' });
      const response = await t.fetch(
        '/oauth/token',
        form({
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: REDIRECT,
          client_id: app.client_id,
          code_verifier: client.randomPKCECodeVerifier(),
        }),
      );
      // The library's English sentence becomes ours, in the request's language (Spanish by default).
      const body = await json(response);
      expect([response.status, body.error, body.error_description]).toEqual([
        400,
        'invalid_grant',
        'code_verifier no corresponde al code_challenge de la solicitud (PKCE).',
      ]);
    });

    it('refuses a replayed code and revokes the tokens issued from it', async () => {
      const app = await createClient();
      const code = await codeFor(app);
      const first = await json(await exchange(app, code));
      expect((await t.fetch('/api/v1/me', { headers: bearer(first.access_token) })).status).toBe(200);
      const replay = await exchange(app, code);
      expect([replay.status, (await json(replay)).error]).toEqual([400, 'invalid_grant']);
      expect((await t.fetch('/api/v1/me', { headers: bearer(first.access_token) })).status).toBe(401);
      const refresh = await t.fetch(
        '/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: app.client_id, client_secret: app.client_secret }),
      );
      expect(refresh.status).toBe(400);
    });

    const refreshWith = (app: Json, token: string) =>
      t.fetch('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: token, client_id: app.client_id, client_secret: app.client_secret }));
    const familyOf = async (accessToken: string) =>
      (
        await t.db.query<{ rows: string; live: string; spent: string }>(
          `select count(*) as rows, count(*) filter (where revoked_at is null) as live, count(*) filter (where refresh_used_at is not null) as spent
             from oauth_tokens where family_id = (select family_id from oauth_tokens where access_token_hash = encode(sha256($1::bytea), 'hex'))`,
          [accessToken],
        )
      ).rows[0];
    /** Moves the spend of `refreshToken` back a minute: past the grace window (decision 0028) without waiting for it. */
    const graceOver = (refreshToken: string) =>
      t.db.query(
        `update oauth_tokens set refresh_used_at = refresh_used_at - interval '1 minute' where refresh_token_hash = encode(sha256($1::bytea), 'hex')`,
        [refreshToken],
      );

    it('answers the same pair again when the same client retries a just-spent refresh token (grace window), and stores nothing new', async () => {
      const app = await createClient();
      const first = await json(await exchange(app, await codeFor(app)));
      const second = await json(await refreshWith(app, first.refresh_token));
      expect(second.refresh_token).toMatch(/^lrt_/);
      // The answer was lost, say: the client tries again with the token it holds.
      const retry = await refreshWith(app, first.refresh_token);
      const again = await json(retry);
      expect([retry.status, again.access_token, again.refresh_token]).toEqual([200, second.access_token, second.refresh_token]);
      expect(again.id_token).toEqual(expect.any(String));
      expect(await familyOf(first.access_token)).toEqual({ rows: '2', live: '2', spent: '1' });
      expect((await t.fetch('/api/v1/me', { headers: bearer(second.access_token) })).status).toBe(200);
      // The sealed copy of the pair names neither token in the clear.
      const sealed = (
        await t.db.query<{ successor_sealed: string }>(
          `select successor_sealed from oauth_tokens where refresh_token_hash = encode(sha256($1::bytea), 'hex')`,
          [first.refresh_token],
        )
      ).rows[0]!.successor_sealed;
      expect(sealed).toMatch(/^v1\./);
      expect(sealed).not.toContain(second.refresh_token);
      expect(sealed).not.toContain(second.access_token);
      // The pair goes on as usual.
      expect((await refreshWith(app, second.refresh_token)).status).toBe(200);
    });

    it('revokes the whole family when a spent refresh token comes back after the grace window', async () => {
      const app = await createClient();
      const first = await json(await exchange(app, await codeFor(app)));
      const second = await json(await refreshWith(app, first.refresh_token));
      expect(second.access_token).toMatch(/^lat_/);
      await graceOver(first.refresh_token);
      const reuse = await refreshWith(app, first.refresh_token);
      expect([reuse.status, (await json(reuse)).error]).toEqual([400, 'invalid_grant']);
      expect((await t.fetch('/api/v1/me', { headers: bearer(second.access_token) })).status).toBe(401);
      expect((await refreshWith(app, second.refresh_token)).status).toBe(400);
      expect(await familyOf(first.access_token)).toMatchObject({ live: '0' });
    });

    it('revokes the whole family when a spent refresh token comes back after its successor was used, even inside the window', async () => {
      const app = await createClient();
      const first = await json(await exchange(app, await codeFor(app)));
      const second = await json(await refreshWith(app, first.refresh_token));
      const third = await json(await refreshWith(app, second.refresh_token));
      const reuse = await refreshWith(app, first.refresh_token);
      expect([reuse.status, (await json(reuse)).error]).toEqual([400, 'invalid_grant']);
      expect((await t.fetch('/api/v1/me', { headers: bearer(third.access_token) })).status).toBe(401);
      expect(await familyOf(first.access_token)).toMatchObject({ live: '0' });
    });

    it('revokes the whole family when another client presents a just-spent refresh token', async () => {
      const app = await createClient();
      const other = await createClient();
      const first = await json(await exchange(app, await codeFor(app)));
      const second = await json(await refreshWith(app, first.refresh_token));
      const stolen = await refreshWith(other, first.refresh_token);
      expect([stolen.status, (await json(stolen)).error]).toEqual([400, 'invalid_grant']);
      expect((await t.fetch('/api/v1/me', { headers: bearer(second.access_token) })).status).toBe(401);
    });

    it('rotates a token once however many refreshes with it run at once: every one of 20 gets that one new pair', async () => {
      const app = await createClient();
      const first = await json(await exchange(app, await codeFor(app)));
      const answers = await Promise.all(Array.from({ length: 20 }, () => refreshWith(app, first.refresh_token)));
      const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, body: await json(answer) })));
      expect(bodies.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(new Set(bodies.map((answer) => answer.body.refresh_token)).size).toBe(1);
      expect(new Set(bodies.map((answer) => answer.body.access_token)).size).toBe(1);
      // One success: one new row, nothing revoked (with OAUTH_REFRESH_GRACE_SECONDS=0 the race
      // revokes the family instead: test/oauth-processes.test.ts).
      expect(await familyOf(first.access_token)).toEqual({ rows: '2', live: '2', spent: '1' });
      expect((await refreshWith(app, bodies[0]!.body.refresh_token as string)).status).toBe(200);
    });

    it('wipes the sealed copy of the pair once the grace window is over (RefreshGraceSweeper)', async () => {
      const app = await createClient();
      const first = await json(await exchange(app, await codeFor(app)));
      await json(await refreshWith(app, first.refresh_token));
      const sealedOf = async () =>
        (
          await t.db.query<{ successor_sealed: string | null }>(
            `select successor_sealed from oauth_tokens where refresh_token_hash = encode(sha256($1::bytea), 'hex')`,
            [first.refresh_token],
          )
        ).rows[0]!.successor_sealed;
      const sweeper = new RefreshGraceSweeper(t.app.get(TokenStore));
      await sweeper.sweep();
      expect(await sealedOf()).toMatch(/^v1\./);
      await graceOver(first.refresh_token);
      expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
      expect(await sealedOf()).toBeNull();
    });

    it('refuses a confidential client that sends only a code_verifier instead of its secret', async () => {
      const app = await createClient();
      const verifier = client.randomPKCECodeVerifier();
      const back = await consent(person, { client_id: app.client_id, redirect_uri: REDIRECT, code_challenge: s256(verifier), code_challenge_method: 'S256' });
      const response = await t.fetch(
        '/oauth/token',
        form({
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: REDIRECT,
          client_id: app.client_id,
          code_verifier: verifier,
        }),
      );
      expect([response.status, (await json(response)).error]).toEqual([400, 'invalid_client']);
    });

    it('keeps app tokens and session tokens apart', async () => {
      const app = await createClient();
      const tokens = await json(await exchange(app, await codeFor(app)));
      expect((await t.fetch('/api/users/me', { headers: bearer(tokens.access_token) })).status).toBe(401);
      expect((await t.fetch('/api/v1/me', { headers: bearer(person.token) })).status).toBe(401);
      expect((await t.fetch('/oauth/userinfo', { headers: bearer(person.token) })).status).toBe(401);
    });

    it('refuses the password grant and unknown grants', async () => {
      const app = await createClient();
      for (const grant of ['password', 'implicit', 'urn:x']) {
        const response = await t.fetch(
          '/oauth/token',
          form({ grant_type: grant, client_id: app.client_id, client_secret: app.client_secret, username: 'a', password: 'b' }),
        );
        expect([grant, response.status, (await json(response)).error]).toEqual([grant, 400, 'unsupported_grant_type']);
      }
    });
  });

  describe('bad input at the token, revocation and introspection endpoints', () => {
    it('answers RFC 6749 errors and issues nothing', async () => {
      const app = await createClient();
      const code = await codeFor(app);
      const before = await tokenCount();
      const cases: [string, RequestInit][] = [
        [
          'JSON instead of a form',
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', code }) },
        ],
        ['no grant_type', form({ code, client_id: app.client_id, client_secret: app.client_secret })],
        [
          'a repeated parameter',
          {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `grant_type=authorization_code&code=${code}&code=${code}&client_id=${app.client_id}&client_secret=${app.client_secret}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
          },
        ],
        [
          'an oversized code',
          form({ grant_type: 'authorization_code', code: 'x'.repeat(100_000), client_id: app.client_id, client_secret: app.client_secret }),
        ],
        ['a text body', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'grant_type=client_credentials' }],
        ['an empty body', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }],
        [
          'a wrong redirect_uri',
          form({
            grant_type: 'authorization_code',
            code,
            redirect_uri: 'http://127.0.0.1:7777/other',
            client_id: app.client_id,
            client_secret: app.client_secret,
          }),
        ],
      ];
      for (const [what, init] of cases) {
        const response = await t.fetch('/oauth/token', init);
        const body = await json(response);
        expect([what, response.status >= 400 && response.status < 500]).toEqual([what, true]);
        expect([what, typeof body.error, typeof body.error_description]).toEqual([what, 'string', 'string']);
        expect(body.access_token).toBeUndefined();
      }
      expect(await tokenCount()).toBe(before);
      for (const path of ['/oauth/revoke', '/oauth/introspect']) {
        const noClient = await t.fetch(path, form({ token: 'lat_x' }));
        expect([path, noClient.status, (await json(noClient)).error]).toEqual([path, 401, 'invalid_client']);
        const json415 = await t.fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: basic(app.client_id, app.client_secret) },
          body: '{}',
        });
        expect([path, json415.status, (await json(json415)).error]).toEqual([path, 400, 'invalid_request']);
      }
      // A public client may not introspect.
      const pub = await createClient({ client_type: 'public' });
      expect((await t.fetch('/oauth/introspect', form({ token: 'lat_x', client_id: pub.client_id }))).status).toBe(401);
    });
  });

  describe('the person stays in control', () => {
    it('lists the apps with access and revokes one: its tokens stop at once', async () => {
      const [someone] = await seedUsers(t.db, 1);
      const app = await createClient({ name: 'Revocable' });
      const back = await consent(someone!, { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid email' });
      const tokens = await json(await exchange(app, back.searchParams.get('code')!));
      const apps = (await json(await t.fetch('/api/users/me/apps', { headers: bearer(someone!.token) }))) as unknown as Json[];
      expect(apps).toHaveLength(1);
      expect(apps[0]).toMatchObject({ client_id: app.client_id, client_name: 'Revocable' });
      expect(apps[0]!.scopes.map((s: Json) => s.scope)).toEqual(['openid', 'email']);

      // Another person cannot revoke it.
      expect((await t.fetch(`/api/users/me/apps/${apps[0]!.id}`, { method: 'DELETE', headers: bearer(person.token) })).status).toBe(404);
      const revoked = await t.fetch(`/api/users/me/apps/${apps[0]!.id}`, { method: 'DELETE', headers: bearer(someone!.token) });
      expect(revoked.status).toBe(204);
      expect((await t.fetch('/oauth/userinfo', { headers: bearer(tokens.access_token) })).status).toBe(401);
      const refresh = await t.fetch(
        '/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.client_id, client_secret: app.client_secret }),
      );
      expect(refresh.status).toBe(400);
      expect(await json(await t.fetch('/api/users/me/apps', { headers: bearer(someone!.token) }))).toEqual([]);
    });

    it('remembers consent: a second request adds scopes to the same grant', async () => {
      const [someone] = await seedUsers(t.db, 1);
      const app = await createClient();
      await consent(someone!, { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid' });
      await consent(someone!, { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'email' });
      const apps = (await json(await t.fetch('/api/users/me/apps', { headers: bearer(someone!.token) }))) as unknown as Json[];
      expect(apps).toHaveLength(1);
      expect(apps[0]!.scopes.map((s: Json) => s.scope).sort()).toEqual(['email', 'openid']);
    });
  });

  describe('keys and housekeeping', () => {
    it('rotates the signing key: published at once, signing from its activation, the old key still published', async () => {
      const keys = t.app.get(SigningKeysService);
      const before = (await json(await t.fetch('/oauth/jwks'))).keys as Json[];
      const old = await keys.signingKid();
      // An activation an hour away, so that "not yet" does not depend on how fast this test runs.
      const { kid } = await keys.rotate({ leadMs: 3_600_000 });
      const after = (await json(await t.fetch('/oauth/jwks'))).keys as Json[];
      expect(after.map((key) => key.kid).sort()).toEqual([...before.map((key) => key.kid), kid].sort());
      const app = await createClient();
      const idHeader = async () => {
        const tokens = await json(await exchange(app, await codeFor(app, 'openid')));
        return JSON.parse(Buffer.from((tokens.id_token as string).split('.')[0]!, 'base64url').toString()) as Json;
      };
      expect(await idHeader()).toMatchObject({ alg: 'RS256', kid: old });
      // Its time comes: new ID tokens use it.
      await t.db.query(`update oauth_signing_keys set activates_at = now() where kid = $1`, [kid]);
      await keys.refresh();
      expect(await idHeader()).toMatchObject({ alg: 'RS256', kid });
      expect(((await json(await t.fetch('/oauth/jwks'))).keys as Json[]).map((key) => key.kid)).toContain(old);
      const rows = (await t.db.query<Json>('select private_jwk_sealed from oauth_signing_keys')).rows;
      for (const row of rows) expect(row.private_jwk_sealed).toMatch(/^v1\./);
    });

    it('deletes codes and tokens long past their expiry, and nothing live', async () => {
      const app = await createClient();
      const live = await json(await exchange(app, await codeFor(app)));
      await codeFor(app);
      await t.db.query(`update oauth_codes set expires_at = now() - interval '2 days' where client_id = $1`, [app.id]);
      const [row] = (await t.db.query<Json>('select id from oauth_tokens where client_id = $1', [app.id])).rows;
      await t.db.query(
        `insert into oauth_tokens (id, created_at, updated_at, access_token_hash, refresh_token_hash, access_expires_at, refresh_expires_at, client_id, family_id, scopes)
         values (gen_random_uuid(), now(), now(), $1, null, now() - interval '9 days', null, $2, gen_random_uuid(), '[]')`,
        [createHash('sha256').update('old').digest('hex'), app.id],
      );
      const swept = await new ExpiredTokensSweeper(t.app.get(EntityManager)).sweep();
      expect(swept).toBe(3);
      expect((await t.db.query<Json>('select id from oauth_tokens where client_id = $1', [app.id])).rows).toEqual([row]);
      expect((await t.fetch('/api/v1/me', { headers: bearer(live.access_token) })).status).toBe(200);
    });
  });

  describe('resource API and proxy', () => {
    let github: Json;
    beforeAll(async () => {
      const list = (await json(await t.fetch('/api/external-services/all', { headers: bearer(admin.token) }))) as unknown as Json[];
      const row = list.find((service) => service.service_name === 'github')!;
      const response = await adminJson(`/api/external-services/${row.id}`, 'PUT', stand.rows.github);
      expect(response.status).toBe(200);
      github = stand.rows.github as unknown as Json;
      const auth = await json(await t.fetch('/api/external-services/github/auth', { method: 'POST', headers: bearer(person.token) }));
      const target = await followAuthorize(auth.auth_url as string);
      const done = await t.fetch(`/callback/github?${target.searchParams}`, { headers: { ...bearer(person.token), accept: 'application/json' } });
      expect(done.status).toBe(200);
    });

    it('lists connected services without tokens and proxies only with service:<name>', async () => {
      expect(github.base_url).toBeTruthy();
      const app = await createClient({ allowed_scopes: ['openid', 'services:read', 'service:github', 'service:spotify'] });
      const withScope = await json(await exchange(app, await codeFor(app, 'services:read service:github')));
      const services = (await json(await t.fetch('/api/v1/services', { headers: bearer(withScope.access_token) }))) as unknown as Json[];
      expect(services).toEqual([expect.objectContaining({ service_name: 'github', status: 'connected', proxy_allowed: true })]);
      expect(JSON.stringify(services)).not.toMatch(/token/i);

      const proxied = await t.fetch('/api/v1/services/github/proxy/user', { headers: bearer(withScope.access_token) });
      expect(proxied.status).toBe(200);
      expect(await json(proxied)).toMatchObject({ login: expect.any(String) });
      expect(proxied.headers.get('x-life-proxied-service')).toBe('github');

      const traversal = await t.fetch('/api/v1/services/github/proxy/..%2f..%2fadmin', { headers: bearer(withScope.access_token) });
      expect(traversal.status).toBe(400);
      const notConnected = await json(await exchange(app, await codeFor(app, 'service:spotify')));
      expect((await t.fetch('/api/v1/services/spotify/proxy/me', { headers: bearer(notConnected.access_token) })).status).toBe(404);

      const without = await json(await exchange(app, await codeFor(app, 'openid')));
      const refused = await t.fetch('/api/v1/services/github/proxy/user', { headers: bearer(without.access_token) });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');
      expect((await t.fetch('/api/v1/services', { headers: bearer(without.access_token) })).status).toBe(403);
    });
  });
});

describe('authorization server rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      role: 'web',
      env: {
        OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: '1000',
        OAUTH_CLIENT_AUTH_FAILURES_PER_15MIN: '3',
        OAUTH_PROXY_RATE_LIMIT_PER_MINUTE: '2',
        CORS_ORIGINS: 'https://spa.example',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets a configured SPA origin call the token endpoint cross-origin, and no other', async () => {
    const allowed = await t.fetch('/oauth/token', { method: 'OPTIONS', headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' } });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://spa.example');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    const other = await t.fetch('/oauth/token', { method: 'OPTIONS', headers: { origin: 'https://other.example', 'access-control-request-method': 'POST' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-allow-methods')).toBeNull();
    // A simple cross-origin call: allowed, with the headers an app may read; caches are told answers vary by Origin.
    const simple = await t.fetch('/api/site', { headers: { origin: 'https://spa.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBe('https://spa.example');
    expect(simple.headers.get('access-control-expose-headers')).toContain('x-request-id');
    const sameOrigin = await t.fetch('/api/site');
    expect(sameOrigin.headers.get('access-control-allow-origin')).toBeNull();
    expect(sameOrigin.headers.get('vary')).toContain('Origin');
  });

  it('answers 429 with Retry-After after too many failed client authentications, even with the right secret', async () => {
    const [admin] = await seedUsers(t.db, 1, 'admin');
    const app = (await (
      await t.fetch('/oauth_clients', {
        method: 'POST',
        headers: { ...bearer(admin!.token), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Limitada', redirect_uris: [REDIRECT] }),
      })
    ).json()) as Json;
    for (let i = 0; i < 3; i++) {
      const wrong = await t.fetch(
        '/oauth/token',
        form({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: `wrong${randomBytes(4).toString('hex')}` }),
      );
      // RFC 6749 §5.2: 401 only when the client tried the Authorization header; 400 for body credentials.
      expect([wrong.status, ((await wrong.json()) as Json).error]).toEqual([400, 'invalid_client']);
    }
    const blocked = await t.fetch('/oauth/token', form({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret }));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
