import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { freePort } from '@life/test-support';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'http://127.0.0.1:7777/callback';

/**
 * OIDC prompt, max_age, request objects and remembered consent decided by the server
 * (decision 0033). openid-client builds the requests and checks the answers, as an app would.
 */
describe('authorization endpoint: prompt, max_age, request objects, server-side remembered consent', () => {
  let t: TestApp;
  let admin: SeededUser;

  const json = async (response: Response) => (await response.json()) as Json;

  const createClient = async (input: Json = {}): Promise<Json> => {
    const response = await t.fetch('/oauth_clients', {
      method: 'POST',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Agenda Demo', redirect_uris: [REDIRECT], ...input }),
    });
    expect(response.status).toBe(201);
    return json(response);
  };

  /** A person with a live session that started `agoSeconds` ago (their auth_time). */
  const signIn = async (user: SeededUser, agoSeconds = 0): Promise<string> => {
    const token = randomBytes(32).toString('base64url');
    await t.db.query(
      `insert into sessions (id, token_hash, user_id, created_at, last_used_at, expires_at)
       values (gen_random_uuid(), $1, $2, now() - make_interval(secs => $3), now(), now() + interval '1 day')`,
      [createHash('sha256').update(token).digest('hex'), user.id, agoSeconds],
    );
    return token;
  };

  /** An app as openid-client sees it: discovery, then its own authorization URLs. */
  const appFor = async (input: Json = {}) => {
    const app = await createClient(input);
    const auth = app.client_secret ? client.ClientSecretPost(app.client_secret as string) : client.None();
    const cfg = await client.discovery(new URL(t.url), app.client_id as string, undefined, auth, { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = async (params: Record<string, string> = {}) =>
      client.buildAuthorizationUrl(cfg, {
        redirect_uri: REDIRECT,
        scope: 'openid profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...params,
      });
    /** openid-client checks the answer (state, iss, nonce, auth_time against max_age) and exchanges the code. */
    const exchange = (back: URL, maxAge?: number) =>
      client.authorizationCodeGrant(cfg, back, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true, maxAge });
    return { app, cfg, url, exchange, state };
  };

  /** What the consent page gets from `GET /oauth/authorize` (with the session's bearer when given). */
  const ask = async (url: URL | string, token?: string): Promise<Json> => {
    const target = typeof url === 'string' ? url : `${url.pathname}${url.search}`;
    const response = await t.fetch(target, { headers: { accept: 'application/json', ...(token ? bearer(token) : {}) }, redirect: 'manual' });
    const body = await json(response);
    expect([response.status, response.headers.get('location'), response.headers.get('cache-control')]).toEqual([200, null, 'no-store']);
    return body;
  };

  /** The consent POST (Permitir / Denegar) with the page's parameters. */
  const answer = (url: URL, token: string, action: 'allow' | 'deny' = 'allow', extra: Record<string, string> = {}) =>
    t.fetch('/oauth/authorize', {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ ...Object.fromEntries(url.searchParams), ...extra, action }),
    });

  const grantBy = async (url: URL, token: string) => {
    const response = await answer(url, token);
    expect(response.status).toBe(200);
    return new URL((await json(response)).redirect_to as string);
  };

  const errorAt = (redirectTo: string) => {
    const back = new URL(redirectTo);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    return Object.fromEntries(back.searchParams);
  };

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({ role: 'web', env: { PORT: String(port), APP_URL: `http://127.0.0.1:${port}` } });
    [admin] = await seedUsers(t.db, 1, 'admin');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('discovery advertises exactly the prompt values and that request objects and the claims parameter are not supported', async () => {
    const meta = await json(await t.fetch('/.well-known/openid-configuration'));
    expect(meta).toMatchObject({
      prompt_values_supported: ['none', 'login', 'consent'],
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      claims_parameter_supported: false,
    });
    expect(meta.claims_supported).toContain('auth_time');
    expect(meta.ui_locales_supported).toEqual(['es', 'en', 'pt', 'fr', 'de', 'it', 'ja', 'zh']);
  });

  describe('prompt=none', () => {
    it('without a session (or with an ended one) goes back with error=login_required, state and iss', async () => {
      const { url, state } = await appFor();
      const none = await url({ prompt: 'none' });
      for (const token of [undefined, 'not-a-live-session-token-at-all-1234567890']) {
        const body = await ask(none, token);
        expect(Object.keys(body)).toEqual(['redirect_to']);
        expect(errorAt(body.redirect_to)).toMatchObject({ error: 'login_required', state, iss: t.url });
        expect(errorAt(body.redirect_to).error_description).toContain('prompt=none');
      }
      // openid-client reads it as the OIDC error it is.
      const { cfg } = await appFor();
      await expect(client.authorizationCodeGrant(cfg, new URL((await ask(none)).redirect_to), { expectedState: state })).rejects.toMatchObject({
        error: 'login_required',
      });
    });

    it('signed in without a grant: consent_required; with a grant covering the scopes: a code, silently; auth_time in the ID token', async () => {
      const [person] = await seedUsers(t.db, 1);
      const token = await signIn(person!, 30);
      const { url, exchange, state } = await appFor();
      const none = await url({ prompt: 'none' });
      expect(errorAt((await ask(none, token)).redirect_to)).toMatchObject({ error: 'consent_required', state, iss: t.url });

      // The person allows once (the question, then Permitir)…
      const question = await url();
      expect(await ask(question, token)).toMatchObject({ client_name: 'Agenda Demo', scope: 'openid profile' });
      await grantBy(question, token);

      // …then prompt=none answers with a code, without showing anything.
      const silent = await ask(none, token);
      expect(Object.keys(silent)).toEqual(['redirect_to']);
      const back = new URL(silent.redirect_to);
      expect(back.searchParams.get('code')).toMatch(/^lac_/);
      const tokens = await exchange(back);
      const claims = tokens.claims()!;
      expect(claims.sub).toBe(person!.id);
      expect(Math.abs(Number(claims.auth_time) - (Math.floor(Date.now() / 1000) - 30))).toBeLessThanOrEqual(5);
      expect(state).toBe(back.searchParams.get('state'));

      // Wider scopes than the grant: consent needed again.
      expect(errorAt((await ask(await url({ prompt: 'none', scope: 'openid profile email' }), token)).redirect_to).error).toBe('consent_required');
    });

    it('combined with another value, or an unknown prompt value, is invalid_request at the app', async () => {
      const { url, state } = await appFor();
      const [person] = await seedUsers(t.db, 1);
      for (const prompt of ['none login', 'consent none', 'select_account', 'ñoño', 'login   bogus']) {
        const body = await ask(await url({ prompt }), person!.token);
        expect([prompt, errorAt(body.redirect_to)]).toEqual([prompt, expect.objectContaining({ error: 'invalid_request', state, iss: t.url })]);
      }
    });

    it('never redirects for a bad client or redirect URI, whatever prompt says', async () => {
      const { app } = await appFor();
      const cases = [
        `client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}&prompt=none`,
        `client_id=${app.client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&prompt=none`,
        `client_id=${app.client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&request=eyJhbGciOiJub25lIn0.e30.`,
        `client_id=${app.client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&prompt=bogus`,
      ];
      for (const query of cases) {
        const response = await t.fetch(`/oauth/authorize?${query}`, { headers: { accept: 'application/json' }, redirect: 'manual' });
        const body = await json(response);
        expect([response.status, body.redirect_to, response.headers.get('location')]).toEqual([400, undefined, null]);
        expect(['invalid_client', 'invalid_request']).toContain(body.error);
      }
    });

    it('a POST allow cannot turn prompt=none into a consent: consent_required unless remembered', async () => {
      const [person] = await seedUsers(t.db, 1);
      const { url } = await appFor();
      const none = await url({ prompt: 'none' });
      const response = await answer(none, person!.token);
      expect(response.status).toBe(200);
      expect(errorAt((await json(response)).redirect_to).error).toBe('consent_required');
      const grants = await t.db.query('select 1 from oauth_grants where user_id = $1', [person!.id]);
      expect(grants.rowCount).toBe(0);
    });
  });

  describe('remembered consent, decided by the server', () => {
    it('answers a code to the signed-in page when the grant covers the scopes; asks with prompt=consent, after revoking, or without a session', async () => {
      const [person] = await seedUsers(t.db, 1);
      const { url, exchange } = await appFor();
      const plain = await url();
      expect((await ask(plain, person!.token)).scopes).toHaveLength(2);
      await grantBy(plain, person!.token);

      const auto = await ask(plain, person!.token);
      expect(new URL(auto.redirect_to).searchParams.get('iss')).toBe(t.url);
      await exchange(new URL(auto.redirect_to));

      // A subset of the granted scopes is covered too.
      expect((await ask(await url({ scope: 'openid' }), person!.token)).redirect_to).toContain('code=');
      // prompt=consent always asks (the admin's Autorizar relies on it, decision 0025).
      expect(await ask(await url({ prompt: 'consent' }), person!.token)).toMatchObject({ client_name: 'Agenda Demo' });
      // Without the bearer the server cannot know who it is: sign in first.
      expect((await ask(plain)).sign_in).toEqual({ again: false });

      const grants = await json(await t.fetch('/api/users/me/apps', { headers: bearer(person!.token) }));
      expect(grants).toHaveLength(1);
      const revoked = await t.fetch(`/api/users/me/apps/${grants[0].id}`, { method: 'DELETE', headers: bearer(person!.token) });
      expect(revoked.status).toBeLessThan(300);
      const after = await ask(plain, person!.token);
      expect(after.redirect_to).toBeUndefined();
      expect(after.sign_in).toBeUndefined();
      expect(after.client_name).toBe('Agenda Demo');
    });

    it("never answers for another person's grant", async () => {
      const [owner, other] = await seedUsers(t.db, 2);
      const { url } = await appFor();
      const plain = await url();
      await grantBy(plain, owner!.token);
      const body = await ask(plain, other!.token);
      expect(body.redirect_to).toBeUndefined();
      expect(body.client_name).toBe('Agenda Demo');
    });
  });

  describe('prompt=login and max_age', () => {
    it('prompt=login asks for a new sign-in with a ticket; only a session started after it can answer', async () => {
      const [person] = await seedUsers(t.db, 1);
      const old = await signIn(person!, 5);
      const { url, exchange } = await appFor();
      const login = await url({ prompt: 'login' });
      const first = await ask(login, old);
      expect(first).toMatchObject({ client_name: 'Agenda Demo', sign_in: { again: true, login_ticket: expect.stringMatching(/^[0-9a-z]+\.[0-9a-f]{64}$/) } });
      const ticket = first.sign_in.login_ticket as string;

      // The page cannot skip it: neither the POST without a ticket nor the old session with it.
      const skipped = await answer(login, old);
      expect([skipped.status, (await json(skipped)).error]).toEqual([403, 'login_required']);
      const withTicket = new URL(login);
      withTicket.searchParams.set('login_ticket', ticket);
      expect((await ask(withTicket, old)).sign_in).toMatchObject({ again: true });
      expect((await answer(withTicket, old)).status).toBe(403);

      // A made-up or altered ticket counts for nothing.
      for (const forged of [`${Date.now().toString(36)}.${'0'.repeat(64)}`, ticket.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')), 'ñ'.repeat(300)]) {
        const fake = new URL(login);
        fake.searchParams.set('login_ticket', forged);
        const fresh = await signIn(person!, 0);
        expect((await ask(fake, fresh)).sign_in).toMatchObject({ again: true });
      }

      // Signed in again after the ticket: the question (no grant yet), then the code.
      const fresh = await signIn(person!, 0);
      const question = await ask(withTicket, fresh);
      expect(question.sign_in).toBeUndefined();
      const back = await grantBy(withTicket, fresh);
      const claims = (await exchange(back)).claims()!;
      expect(Number(claims.auth_time) * 1000).toBeGreaterThanOrEqual(parseInt(ticket.split('.')[0]!, 36) - 1000);

      // With the grant, prompt=login still asks for a sign-in first, then answers at once.
      const again = await ask(login, fresh);
      expect(again.sign_in).toMatchObject({ again: true });
      const ticketed = new URL(login);
      ticketed.searchParams.set('login_ticket', again.sign_in.login_ticket);
      expect((await ask(ticketed, await signIn(person!, 0))).redirect_to).toContain('code=');
    });

    it("a ticket is bound to its app: another app's ticket does not count", async () => {
      const [person] = await seedUsers(t.db, 1);
      const first = await appFor();
      const second = await appFor();
      const ticket = (await ask(await first.url({ prompt: 'login' }))).sign_in.login_ticket as string;
      const fresh = await signIn(person!, 0);
      const elsewhere = await second.url({ prompt: 'login', login_ticket: ticket });
      expect((await ask(elsewhere, fresh)).sign_in).toMatchObject({ again: true });
    });

    it('a ticket is bound to its request: carried to another request of the same app (other state, challenge or nonce) it does not count', async () => {
      const [person] = await seedUsers(t.db, 1);
      const { url } = await appFor();
      const ticket = (await ask(await url({ prompt: 'login' }))).sign_in.login_ticket as string;
      const fresh = await signIn(person!, 0);
      // The request it was made for accepts it (the question comes, no sign-in asked)...
      expect((await ask(await url({ prompt: 'login', login_ticket: ticket }), fresh)).sign_in).toBeUndefined();
      // ...another one of the same app does not.
      const others: Record<string, string>[] = [{ state: 'another-state' }, { nonce: 'another-nonce' }, { code_challenge: 'A'.repeat(43) }];
      for (const other of others) {
        const moved = await url({ prompt: 'login', login_ticket: ticket, ...other });
        expect([other, (await ask(moved, fresh)).sign_in]).toEqual([other, expect.objectContaining({ again: true })]);
      }
    });

    it('max_age: an older sign-in asks for a new one (login_required with prompt=none); a recent one answers; auth_time checked by openid-client', async () => {
      const [person] = await seedUsers(t.db, 1);
      const { url, exchange, state } = await appFor();
      const hourOld = await signIn(person!, 3600);
      await grantBy(await url(), hourOld);

      const strict = await url({ max_age: '60' });
      const asked = await ask(strict, hourOld);
      expect(asked.sign_in).toMatchObject({ again: true, login_ticket: expect.any(String) });
      expect((await answer(strict, hourOld)).status).toBe(403);
      expect(errorAt((await ask(await url({ max_age: '60', prompt: 'none' }), hourOld)).redirect_to)).toMatchObject({
        error: 'login_required',
        state,
        iss: t.url,
      });

      // Generous enough: the remembered grant answers at once; the ID token's auth_time satisfies max_age.
      const loose = await ask(await url({ max_age: '7200' }), hourOld);
      await exchange(new URL(loose.redirect_to), 7200);

      // A new sign-in satisfies max_age (even 0, through the ticket).
      const recent = await signIn(person!, 0);
      const auto = await ask(strict, recent);
      await exchange(new URL(auto.redirect_to), 60);
      const zero = await url({ max_age: '0' });
      const zeroAsked = await ask(zero, recent);
      expect(zeroAsked.sign_in).toMatchObject({ again: true });
      const zeroTicketed = new URL(zero);
      zeroTicketed.searchParams.set('login_ticket', zeroAsked.sign_in.login_ticket);
      const afterZero = await ask(zeroTicketed, await signIn(person!, 0));
      await exchange(new URL(afterZero.redirect_to), 0);
    });

    it('a max_age that is not a whole number of seconds is invalid_request at the app', async () => {
      const { url, state } = await appFor();
      for (const maxAge of ['abc', '-1', '1.5', '٣', '1e3', '9'.repeat(40)]) {
        const body = await ask(await url({ max_age: maxAge }));
        expect([maxAge, errorAt(body.redirect_to)]).toEqual([maxAge, expect.objectContaining({ error: 'invalid_request', state, iss: t.url })]);
      }
    });
  });

  describe('request objects', () => {
    it('refuses request with request_not_supported and request_uri with request_uri_not_supported, back at the app', async () => {
      const { url, state } = await appFor();
      const [person] = await seedUsers(t.db, 1);
      const cases: [Record<string, string>, string][] = [
        [{ request: 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.' }, 'request_not_supported'],
        [{ request: 'x'.repeat(6000) }, 'request_not_supported'],
        [{ request: '日本語のリクエスト' }, 'request_not_supported'],
        [{ request_uri: 'https://app.example/request.jwt' }, 'request_uri_not_supported'],
        [{ request_uri: 'urn:other:thing' }, 'request_uri_not_supported'],
      ];
      for (const [params, error] of cases) {
        for (const token of [undefined, person!.token]) {
          const body = await ask(await url(params), token);
          expect(errorAt(body.redirect_to)).toMatchObject({ error, state, iss: t.url });
        }
        const posted = await answer(await url(params), person!.token);
        expect(errorAt((await json(posted)).redirect_to).error).toBe(error);
      }
    });

    it('lets a pushed authorization request handle (urn:ietf:params:oauth:request_uri:) through this check', async () => {
      const { url } = await appFor();
      const par = await url({ request_uri: 'urn:ietf:params:oauth:request_uri:abc123' });
      const response = await t.fetch(`${par.pathname}${par.search}`, { headers: { accept: 'application/json' } });
      const body = await json(response);
      expect(body.error).not.toBe('request_uri_not_supported');
      expect(JSON.stringify(body)).not.toContain('request_uri_not_supported');
    });
  });

  it('ignores the other OIDC parameters safely (ui_locales, login_hint, id_token_hint, acr_values, display, claims)', async () => {
    const [person] = await seedUsers(t.db, 1);
    const { url } = await appFor();
    const body = await ask(
      await url({
        ui_locales: 'en fr',
        login_hint: 'alguien@example.com',
        id_token_hint: 'not.a.token',
        acr_values: 'urn:mace:incommon:iap:silver',
        display: 'popup',
        claims: JSON.stringify({ id_token: { email: { essential: true } } }),
      }),
      person!.token,
    );
    expect(body).toMatchObject({ client_name: 'Agenda Demo', scope: 'openid profile' });
    expect(body.redirect_to).toBeUndefined();
  });
});
