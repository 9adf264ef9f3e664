import { createHash, randomBytes } from 'node:crypto';
import type { Language } from '@life/contracts';
import { freePort } from '@life/test-support';
import { msg, render } from '../src/core/i18n/messages.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

// Issue 18 points 1, 2, 3, 4 and 7 (decision 0031): the protocol's edges, against the real app.

const REDIRECT = 'http://127.0.0.1:8765/cb';
const form = (values: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(values).toString(),
});
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const verifier = () => randomBytes(32).toString('base64url');
/** Every byte of a header value below 0x80 (fetch hands header bytes over as Latin-1 characters). */
const isAscii = (value: string) => [...value].every((char) => char.charCodeAt(0) < 0x80);

/** Bad values every protocol parameter is tried with: none may ever be a 500. */
const BAD_VALUES: [string, string][] = [
  ['non-ASCII', 'café'],
  ['CJK and emoji', '認可😀'],
  ['a control character', 'a\u0001b'],
  ['a line break', 'a\r\nb'],
  ['a NUL', 'a\u0000b'],
  ['a huge value', 'a'.repeat(5000)],
];

describe('authorization server edges (real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;

  const json = async (response: Response) => (await response.json()) as Json;
  const createClient = async (input: Json = {}): Promise<Json> => {
    const response = await t.fetch('/oauth_clients', {
      method: 'POST',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'App de bordes', redirect_uris: [REDIRECT], ...input }),
    });
    expect(response.status).toBe(201);
    return json(response);
  };
  const authorizeGet = (params: Record<string, string>) =>
    t.fetch(`/oauth/authorize?${new URLSearchParams(params).toString()}`, { headers: { accept: 'application/json' }, redirect: 'manual' });
  const authorizePost = (params: Record<string, string>, action: 'allow' | 'deny' = 'allow') =>
    t.fetch('/oauth/authorize', {
      method: 'POST',
      redirect: 'manual',
      headers: { ...bearer(person.token), 'content-type': 'application/json' },
      body: JSON.stringify({ ...params, action }),
    });
  const codeFor = async (app: Json, params: Record<string, string> = {}) => {
    const response = await authorizePost({ client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid profile', state: 'st', ...params });
    const body = await json(response);
    expect([response.status, body.error]).toEqual([200, undefined]);
    return new URL(body.redirect_to as string).searchParams.get('code')!;
  };
  const exchange = (app: Json, code: string, extra: Record<string, string> = {}) =>
    t.fetch(
      '/oauth/token',
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret, ...extra }),
    );

  /** What a consent for this app left behind: grants, codes and audit rows. */
  const traces = async (app: Json) => {
    const count = async (query: string) => Number((await t.db.query<{ n: string }>(query, [app.client_id])).rows[0]!.n);
    return {
      grants: await count('select count(*) as n from oauth_grants g join oauth_clients c on c.id = g.client_id where c.client_id = $1'),
      codes: await count('select count(*) as n from oauth_codes k join oauth_clients c on c.id = k.client_id where c.client_id = $1'),
      audit: await count(`select count(*) as n from audit_events where target_id = $1 and action like 'oauth.consent_%'`),
    };
  };
  /** The audit row of a consent is written by an event handler: waits for it (no time is asserted). */
  const auditRowsOf = async (app: Json, expected: number) => {
    for (let attempt = 0; attempt < 100 && (await traces(app)).audit < expected; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    return (await traces(app)).audit;
  };
  /** An RFC 6749 §5.2 error answer in JSON, never a 500, and never a redirect. */
  const expectProtocolError = async (response: Response, statuses: number[] = [400]) => {
    const body = await json(response);
    expect(statuses).toContain(response.status);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('location')).toBeNull();
    expect(typeof body.error).toBe('string');
    expect(typeof body.error_description).toBe('string');
    expect(body.redirect_to).toBeUndefined();
    return body;
  };

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({
      role: 'web',
      env: {
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
        OAUTH_CLIENT_AUTH_FAILURES_PER_15MIN: '100000',
      },
    });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('1. every authorization parameter is checked before anything is stored', () => {
    it('refuses state=café with a 400 on GET and on the consent POST, leaving no grant, code or audit row', async () => {
      const app = await createClient();
      const params = { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 'café' };
      const shown = await expectProtocolError(await authorizeGet(params));
      expect(shown.error).toBe('invalid_request');
      expect(shown.error_description).toContain('state');
      await expectProtocolError(await authorizePost(params));
      await expectProtocolError(await authorizePost(params, 'deny'));
      // A good consent afterwards is recorded: the failures above would have been recorded before it.
      await codeFor(app);
      expect(await auditRowsOf(app, 1)).toBe(1);
      expect(await traces(app)).toEqual({ grants: 1, codes: 1, audit: 1 });
    });

    const PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'response_mode'];
    it.each(PARAMS)('answers a 400 JSON error for a bad %s on GET and POST (allow and deny), and stores nothing', async (param) => {
      const app = await createClient();
      const good = { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid profile', state: 'st', nonce: 'n-1' };
      const tries: [string, string][] = [...BAD_VALUES, ['a non-ASCII URI path', 'http://127.0.0.1:8765/cé']];
      // A quote and a backslash are VSCHAR (state, nonce may have them), not NQSCHAR (scope, prompt) nor URI characters.
      if (['scope', 'prompt', 'redirect_uri', 'code_challenge'].includes(param)) tries.push(['a quote and a backslash', 'a"b\\c']);
      for (const [, value] of tries) {
        const params = { ...good, [param]: value };
        await expectProtocolError(await authorizeGet(params));
        await expectProtocolError(await authorizePost(params));
        await expectProtocolError(await authorizePost(params, 'deny'));
      }
      await codeFor(app);
      expect(await auditRowsOf(app, 1)).toBe(1);
      expect(await traces(app)).toEqual({ grants: 1, codes: 1, audit: 1 });
    });

    // A printable but unknown prompt is read once the client and its redirect URI are checked, so its
    // error goes back to the app (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6; decision 0033); control
    // characters and huge values fail the first reading of every parameter. Nothing is stored either way.
    it('answers a bad prompt with a 400 (tampered) or an invalid_request back at the app (unknown value), and stores nothing', async () => {
      const app = await createClient();
      const good = { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid profile', state: 'st', nonce: 'n-1' };
      // eslint-disable-next-line no-control-regex -- looking for exactly these characters
      const tampered = BAD_VALUES.filter(([, value]) => /[\u0000-\u001f]/.test(value) || value.length > 2000);
      expect(tampered.length).toBe(4);
      for (const [, value] of tampered) {
        const params = { ...good, prompt: value };
        await expectProtocolError(await authorizeGet(params));
        await expectProtocolError(await authorizePost(params));
        await expectProtocolError(await authorizePost(params, 'deny'));
      }
      const unknown: string[] = ['café', '認可😀', 'a"b\\c', 'select_account'];
      for (const value of unknown) {
        const params = { ...good, prompt: value };
        for (const response of [await authorizeGet(params), await authorizePost(params), await authorizePost(params, 'deny')]) {
          const body = (await json(response)) as { redirect_to?: string };
          expect(response.status).toBe(200);
          const back = new URL(body.redirect_to!);
          expect([back.origin + back.pathname, back.searchParams.get('error'), back.searchParams.get('state')]).toEqual([REDIRECT, 'invalid_request', 'st']);
        }
      }
      await codeFor(app);
      expect(await auditRowsOf(app, 1)).toBe(1);
      expect(await traces(app)).toEqual({ grants: 1, codes: 1, audit: 1 });
    });

    it('takes the grant back when the code cannot be stored, and tells the audit log nothing', async () => {
      const app = await createClient();
      // PostgreSQL itself refuses this app's codes: the failure comes after the grant's statement.
      const row = (await t.db.query<{ id: string }>('select id from oauth_clients where client_id = $1', [app.client_id])).rows[0]!.id;
      await t.db.query(`
        create function edges_refuse_code() returns trigger language plpgsql as $$
        begin raise exception 'no code for this app'; end $$`);
      await t.db.query(
        `create trigger edges_refuse_code before insert on oauth_codes for each row when (new.client_id = '${row}') execute function edges_refuse_code()`,
      );
      try {
        const response = await authorizePost({ client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's' });
        expect(response.status).toBeGreaterThanOrEqual(500);
        expect((await json(response)).redirect_to).toBeUndefined();
      } finally {
        await t.db.query('drop trigger edges_refuse_code on oauth_codes');
        await t.db.query('drop function edges_refuse_code');
      }
      expect(await traces(app)).toMatchObject({ grants: 0, codes: 0 });
      await codeFor(app);
      expect(await auditRowsOf(app, 1)).toBe(1);
      expect(await traces(app)).toEqual({ grants: 1, codes: 1, audit: 1 });
    });

    it('still issues a code with every parameter at its edge (500-character state and nonce, a 128-character challenge)', async () => {
      const app = await createClient({ client_type: 'public' });
      const longVerifier = 'v'.repeat(128);
      const code = await codeFor(app, {
        state: `${'~'.repeat(499)}"`,
        nonce: `${'n'.repeat(499)}\\`,
        code_challenge: s256(longVerifier),
        code_challenge_method: 'S256',
      });
      const response = await t.fetch(
        '/oauth/token',
        form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, code_verifier: longVerifier }),
      );
      expect(response.status).toBe(200);
    });
  });

  describe('2. redirect URIs: no fragment, no credentials, loopback ports and nothing else', () => {
    it('refuses a fragment on a loopback redirect URI with another port (the reported case), and credentials', async () => {
      const app = await createClient();
      for (const uri of ['http://127.0.0.1:9999/cb#frag', 'http://127.0.0.1:8765/cb#', 'http://user:pw@127.0.0.1:9999/cb', 'http://user@127.0.0.1:8765/cb']) {
        const params = { client_id: app.client_id, redirect_uri: uri, state: 's' };
        expect((await expectProtocolError(await authorizeGet(params))).error).toBe('invalid_request');
        expect((await expectProtocolError(await authorizePost(params))).error).toBe('invalid_request');
      }
      // The query string form of the report: %23 decodes to '#'.
      const raw = await t.fetch(`/oauth/authorize?client_id=${app.client_id}&redirect_uri=http://127.0.0.1:9999/cb%23frag`, {
        headers: { accept: 'application/json' },
      });
      expect((await expectProtocolError(raw)).error).toBe('invalid_request');
      expect(await traces(app)).toEqual({ grants: 0, codes: 0, audit: 0 });
    });

    it('refuses a registered redirect URI with a fragment (a row from before the registration rule)', async () => {
      const app = await createClient();
      await t.db.query(`update oauth_clients set redirect_uris = $2::jsonb where client_id = $1`, [
        app.client_id,
        JSON.stringify(['http://127.0.0.1:8765/cb#old']),
      ]);
      for (const params of [{ client_id: app.client_id }, { client_id: app.client_id, redirect_uri: 'http://127.0.0.1:8765/cb#old' }] as Record<
        string,
        string
      >[]) {
        expect((await expectProtocolError(await authorizeGet(params))).error).toBe('invalid_request');
        expect((await expectProtocolError(await authorizePost(params))).error).toBe('invalid_request');
      }
    });

    it('refuses the admin API a redirect URI with a fragment or credentials', async () => {
      for (const uri of ['https://app.example/cb#x', 'https://u:p@app.example/cb']) {
        const response = await t.fetch('/oauth_clients', {
          method: 'POST',
          headers: { ...bearer(admin.token), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Mala', redirect_uris: [uri] }),
        });
        expect(response.status).toBe(400);
      }
    });

    it.each([
      ['another path', 'http://127.0.0.1:9999/other'],
      ['a dot segment that normalises to the path', 'http://127.0.0.1:9999/x/../cb'],
      ['an encoded letter', 'http://127.0.0.1:9999/c%62'],
      ['another case', 'http://127.0.0.1:9999/CB'],
      ['a trailing slash', 'http://127.0.0.1:9999/cb/'],
      ['an added query', 'http://127.0.0.1:9999/cb?x=1'],
      ['https instead of http', 'https://127.0.0.1:9999/cb'],
      ['localhost (no port leeway)', 'http://localhost:9999/cb'],
      ['another loopback address', 'http://127.0.0.2:9999/cb'],
      ['the IPv6 loopback', 'http://[::1]:9999/cb'],
      ['port 0', 'http://127.0.0.1:0/cb'],
      ['a port past 65535', 'http://127.0.0.1:99999/cb'],
      ['a port with a leading sign', 'http://127.0.0.1:+80/cb'],
      ['an upper-case scheme', 'HTTP://127.0.0.1:9999/cb'],
    ])('compares everything but the port exactly: refuses %s', async (_what, uri) => {
      const app = await createClient();
      const params = { client_id: app.client_id, redirect_uri: uri };
      expect((await expectProtocolError(await authorizeGet(params))).error).toBe('invalid_request');
    });

    it('lets a loopback IP redirect use any port, with or without a port registered, IPv4 and IPv6', async () => {
      const app = await createClient({ redirect_uris: [REDIRECT, 'http://[::1]/native?app=1'] });
      for (const uri of ['http://127.0.0.1:9999/cb', 'http://127.0.0.1/cb', 'http://[::1]:51000/native?app=1', 'http://[::1]/native?app=1']) {
        const response = await authorizePost({ client_id: app.client_id, redirect_uri: uri, state: 's' });
        const body = await json(response);
        expect([uri, response.status]).toEqual([uri, 200]);
        const back = new URL(body.redirect_to as string);
        expect(back.hash).toBe('');
        expect(back.searchParams.get('code')).toMatch(/^lac_/);
      }
    });
  });

  describe('3. one client authentication method per request', () => {
    it('refuses Basic credentials plus a client_secret in the body at the token endpoint, for every grant type', async () => {
      const app = await createClient();
      const auth = { authorization: basic(app.client_id, app.client_secret) };
      const before = Number((await t.db.query<{ n: string }>('select count(*) as n from oauth_tokens')).rows[0]!.n);
      const code = await codeFor(app);
      const both: Record<string, string>[] = [
        { grant_type: 'client_credentials', client_secret: app.client_secret },
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_secret: app.client_secret },
        { grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret },
        { grant_type: 'client_credentials', client_secret: 'lcs_wrong' },
      ];
      for (const body of both) {
        const answer = await expectProtocolError(await t.fetch('/oauth/token', form(body, auth)));
        expect(answer.error).toBe('invalid_request');
      }
      expect(Number((await t.db.query<{ n: string }>('select count(*) as n from oauth_tokens')).rows[0]!.n)).toBe(before);
      // The code was not spent by the refused requests.
      expect((await t.fetch('/oauth/token', form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, auth))).status).toBe(200);
    });

    it('refuses a body client_id naming another client next to Basic credentials, and takes the same one', async () => {
      const app = await createClient();
      const other = await createClient();
      const auth = { authorization: basic(app.client_id, app.client_secret) };
      const mismatch = await expectProtocolError(await t.fetch('/oauth/token', form({ grant_type: 'client_credentials', client_id: other.client_id }, auth)));
      expect(mismatch.error).toBe('invalid_request');
      expect((await t.fetch('/oauth/token', form({ grant_type: 'client_credentials', client_id: app.client_id }, auth))).status).toBe(200);
    });

    it('refuses both methods at the revocation and introspection endpoints too', async () => {
      const app = await createClient();
      const auth = { authorization: basic(app.client_id, app.client_secret) };
      for (const path of ['/oauth/revoke', '/oauth/introspect']) {
        const answer = await expectProtocolError(await t.fetch(path, form({ token: 'lat_x', client_secret: app.client_secret }, auth)));
        expect(answer.error).toBe('invalid_request');
        expect((await t.fetch(path, form({ token: 'lat_x' }, auth))).status).toBe(200);
      }
    });

    it('answers a malformed Authorization header at the token endpoint as a failed client authentication', async () => {
      const app = await createClient();
      const response = await t.fetch(
        '/oauth/token',
        form({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret }, { authorization: 'Basic ***' }),
      );
      expect((await expectProtocolError(response, [401])).error).toBe('invalid_client');
      expect(response.headers.get('www-authenticate')).toContain('Basic');
    });
  });

  describe('4. token answers carry the RFC members only', () => {
    const keys = (body: Json) => Object.keys(body).sort();
    const tokenKeys = (...extra: string[]) => ['access_token', 'expires_in', 'token_type', ...extra].sort();

    it('authorization_code, refresh_token (and its grace retry), client_credentials: exact member sets, no spent code', async () => {
      const app = await createClient();
      const code = await codeFor(app);
      const first = await json(await exchange(app, code));
      expect(keys(first)).toEqual(tokenKeys('refresh_token', 'scope', 'id_token'));
      expect(JSON.stringify(first)).not.toContain(code);
      expect(first).toMatchObject({ token_type: 'Bearer', scope: 'openid profile', expires_in: expect.any(Number) });

      const plain = await json(await exchange(app, await codeFor(app, { scope: 'read' })));
      expect(keys(plain)).toEqual(tokenKeys('refresh_token', 'scope'));

      const refresh = () =>
        t.fetch(
          '/oauth/token',
          form({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: app.client_id, client_secret: app.client_secret }),
        );
      const rotated = await json(await refresh());
      expect(keys(rotated)).toEqual(tokenKeys('refresh_token', 'scope', 'id_token'));
      const retried = await json(await refresh());
      expect(retried.access_token).toBe(rotated.access_token);
      expect(keys(retried)).toEqual(tokenKeys('refresh_token', 'scope', 'id_token'));

      const machine = await json(
        await t.fetch('/oauth/token', form({ grant_type: 'client_credentials' }, { authorization: basic(app.client_id, app.client_secret) })),
      );
      expect(keys(machine).filter((key) => key !== 'scope')).toEqual(tokenKeys());
    });

    it('public client with PKCE: the same members', async () => {
      const app = await createClient({ client_type: 'public' });
      const pkce = verifier();
      const code = await codeFor(app, { code_challenge: s256(pkce), code_challenge_method: 'S256' });
      const response = await t.fetch(
        '/oauth/token',
        form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, code_verifier: pkce }),
      );
      expect(keys(await json(response))).toEqual(tokenKeys('refresh_token', 'scope', 'id_token'));
    });
  });

  describe('7. WWW-Authenticate stays ASCII; the sentence is in the JSON body, in the person’s language', () => {
    const expectChallenge = async (response: Response, status: number, language: Language, text: ReturnType<typeof msg>) => {
      const body = await json(response);
      const challenge = response.headers.get('www-authenticate');
      expect([response.status, typeof challenge]).toEqual([status, 'string']);
      expect(isAscii(challenge!)).toBe(true);
      expect(body.message).toBe(render(text, language));
      // The OAuth endpoints repeat it as RFC 6749's error_description; the resource API does not.
      if (new URL(response.url).pathname.startsWith('/oauth/')) expect(body.error_description).toBe(render(text, language));
      return challenge!;
    };

    it.each(['ja', 'es'] as const)('resource API, userinfo, token, revocation and introspection (Accept-Language %s)', async (language) => {
      const lang = { 'accept-language': language };
      const app = await createClient();

      const me = await t.fetch('/api/v1/me', { headers: { ...lang, authorization: 'Bearer lat_nope' } });
      expect(await expectChallenge(me, 401, language, msg('oauth.invalidAccessToken'))).toBe('Bearer realm="life", error="invalid_token"');

      const missing = await t.fetch('/oauth/userinfo', { headers: lang });
      await expectChallenge(missing, 401, language, msg('oauth.appTokenMissing'));

      const tokens = await json(await exchange(app, await codeFor(app, { scope: 'read' })));
      const noOpenid = await t.fetch('/oauth/userinfo', { headers: { ...lang, ...bearer(tokens.access_token) } });
      expect(await expectChallenge(noOpenid, 403, language, msg('oauth.insufficientScope', { scope: 'openid' }))).toBe(
        'Bearer realm="life", error="insufficient_scope", scope="openid"',
      );

      const machine = await json(
        await t.fetch('/oauth/token', form({ grant_type: 'client_credentials' }, { authorization: basic(app.client_id, app.client_secret) })),
      );
      const notPerson = await t.fetch('/oauth/userinfo', { headers: { ...lang, ...bearer(machine.access_token) } });
      await expectChallenge(notPerson, 401, language, msg('oauth.appTokenNotPerson'));

      for (const path of ['/oauth/revoke', '/oauth/introspect', '/oauth/token']) {
        const wrong = await t.fetch(
          path,
          form({ token: 'lat_x', grant_type: 'client_credentials' }, { ...lang, authorization: basic(app.client_id, 'lcs_wrong') }),
        );
        const challenge = await expectChallenge(wrong, 401, language, msg('oauth.invalidClient'));
        expect(challenge).toMatch(/^Basic realm="[\x20-\x7e]*"$/);
      }
      const malformed = await t.fetch('/oauth/revoke', form({ token: 'lat_x' }, { ...lang, authorization: 'Basic ***' }));
      await expectChallenge(malformed, 401, language, msg('oauth.invalidClient'));
    });
  });

  describe('audit: every bad parameter at token, revocation and introspection is a 400 JSON error', () => {
    const TOKEN_PARAMS = ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope', 'client_id', 'client_secret'];
    it.each(TOKEN_PARAMS)('token endpoint: a bad %s', async (param) => {
      const app = await createClient();
      const code = await codeFor(app);
      const good = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret };
      for (const [what, value] of BAD_VALUES) {
        const response = await t.fetch('/oauth/token', form({ ...good, [param]: value }));
        const body = await expectProtocolError(response, [400]);
        expect([what, body.error]).toEqual([what, expect.stringMatching(/^(invalid_request|invalid_scope|invalid_grant|unsupported_grant_type)$/)]);
      }
      // Basic credentials with bad characters are refused the same way.
      const badBasic = await t.fetch('/oauth/token', form({ grant_type: 'client_credentials' }, { authorization: basic('café', 'sécret') }));
      expect((await expectProtocolError(badBasic)).error).toBe('invalid_request');
      // Nothing was spent: the code still works.
      expect((await exchange(app, code)).status).toBe(200);
    });

    it.each(['/oauth/revoke', '/oauth/introspect'])('%s: a bad token, token_type_hint, client_id or client_secret', async (path) => {
      const app = await createClient();
      const good = { token: 'lat_x', token_type_hint: 'access_token', client_id: app.client_id, client_secret: app.client_secret };
      for (const param of Object.keys(good)) {
        for (const [what, value] of BAD_VALUES) {
          const body = await expectProtocolError(await t.fetch(path, form({ ...good, [param]: value })));
          expect([param, what, body.error]).toEqual([param, what, 'invalid_request']);
        }
      }
    });

    it('a parameter sent twice, or as a JSON array, is a 400 everywhere', async () => {
      const app = await createClient();
      const twice = `grant_type=client_credentials&client_id=${app.client_id}&client_id=${app.client_id}&client_secret=${app.client_secret}`;
      for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
        const response = await t.fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `${twice}&token=lat_x`,
        });
        expect((await expectProtocolError(response)).error).toBe('invalid_request');
      }
      const consent = await authorizePost({ client_id: app.client_id, state: ['a', 'b'] } as unknown as Record<string, string>);
      expect((await expectProtocolError(consent)).error).toBe('invalid_request');
    });
  });
});
