import { generateKeyPair, exportPKCS8 } from 'jose';
import { freePort } from '@life/test-support';
import { startAllStandIns, type AllStandIns, type LoginProviderName } from '@life/test-support/standins';
import { startServiceStandIns, type ServiceStandIns } from '@life/test-support/standins/services';
import { startOidcServer } from '../src/modules/auth/dev-idp/oidc-server.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Issue 16, part D (decision 0044): each login provider and each catalog service tells the admin
 * the redirect URI to register, and 'Comprobar configuración' says what is missing or wrong
 * without starting a sign-in, against local stand-ins that speak each provider's protocol.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
interface Check {
  id: string;
  ok: boolean;
  message: string;
}
interface Report {
  ok: boolean;
  checks: Check[];
}

describe('provider setup: redirect URIs and the configuration check (real PostgreSQL + Redis, stand-ins)', () => {
  let t: TestApp;
  let s: AllStandIns;
  let services: ServiceStandIns;
  let appUrl: string;
  let admin: SeededUser;
  /** Checks services: each admin has their own allowance of checks (CHECK_RATE). */
  let serviceAdmin: SeededUser;
  let person: SeededUser;
  let providerIds: Record<string, string>;
  let serviceIds: Record<string, string>;
  /** A port nothing listens on. */
  let closedPort: number;

  const json = async (response: Response) => (await response.json()) as Json;
  const put = (path: string, body: unknown) =>
    t.fetch(path, { method: 'PUT', headers: { ...bearer(admin.token), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const check = async (path: string, language = 'es', who = admin): Promise<{ status: number; body: Report }> => {
    const response = await t.fetch(path, { method: 'POST', headers: { ...bearer(who.token), 'accept-language': language } });
    return { status: response.status, body: (await response.json()) as Report };
  };
  const providerCheck = (name: string, language?: string) => check(`/api/login-providers/${providerIds[name]}/check`, language);
  const serviceCheck = (name: string, language?: string) => check(`/api/external-services/${serviceIds[name]}/check`, language, serviceAdmin);
  const line = (report: Report, id: string) => report.checks.find((c) => c.id === id);
  const setProvider = async (name: LoginProviderName, changes: Record<string, unknown> = {}) => {
    expect((await put(`/api/login-providers/${providerIds[name]}`, { ...s.providers[name], ...changes })).status).toBe(200);
  };
  const setService = async (name: string, changes: Record<string, unknown> = {}) => {
    expect((await put(`/api/external-services/${serviceIds[name]}`, { ...services.rows[name], ...changes })).status).toBe(200);
  };

  beforeAll(async () => {
    const port = await freePort();
    closedPort = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    t = await startTestApp({ env: { PORT: String(port), APP_URL: appUrl } });
    const warn = console.warn;
    console.warn = (...args: unknown[]) => (String(args[0]).startsWith('oidc-provider WARNING') ? undefined : warn(...args));
    try {
      s = await startAllStandIns({ appUrl, startOidcServer });
    } finally {
      console.warn = warn;
    }
    services = await startServiceStandIns({ families: ['github', 'notion', 'bungie'] });
    [admin, serviceAdmin] = (await seedUsers(t.db, 2, 'admin')) as [SeededUser, SeededUser];
    [person] = (await seedUsers(t.db, 1)) as [SeededUser];
    const providers = (await json(await t.fetch('/api/login-providers', { headers: bearer(admin.token) }))) as unknown as Json[];
    providerIds = Object.fromEntries(providers.map((p) => [p.service_name, p.id]));
    const catalog = (await json(await t.fetch('/api/external-services/all', { headers: bearer(admin.token) }))) as unknown as Json[];
    serviceIds = Object.fromEntries(catalog.map((row) => [row.service_name, row.id]));
    for (const name of ['github', 'google', 'microsoft', 'apple'] as const) await setProvider(name);
    for (const name of Object.keys(services.rows)) await setService(name);
  });

  afterAll(async () => {
    await services?.close();
    await s?.close();
    await t?.close();
  });

  it('every login provider and every service answers the redirect URI to register, from APP_URL', async () => {
    const providers = (await json(await t.fetch('/api/login-providers', { headers: bearer(admin.token) }))) as unknown as Json[];
    expect(Object.fromEntries(providers.map((p) => [p.service_name, p.callback_url]))).toEqual({
      apple: `${appUrl}/login/apple/callback`,
      github: `${appUrl}/login/github/callback`,
      google: `${appUrl}/login/google/callback`,
      microsoft: `${appUrl}/login/microsoft/callback`,
    });
    const catalog = (await json(await t.fetch('/api/external-services/all', { headers: bearer(admin.token) }))) as unknown as Json[];
    expect(catalog).toHaveLength(14);
    for (const row of catalog) {
      // githublogin is the GitHub login provider's sign-in: its URI is that provider's.
      expect({ name: row.service_name, uri: row.callback_url }).toEqual({
        name: row.service_name,
        uri: row.service_name === 'githublogin' ? `${appUrl}/login/github/callback` : `${appUrl}/callback/${row.service_name}`,
      });
    }
  });

  it('an admin’s own redirect_url is the one to register', async () => {
    const own = 'https://life.example/login/google/callback';
    await setProvider('google', { redirect_url: own });
    try {
      const providers = (await json(await t.fetch('/api/login-providers', { headers: bearer(admin.token) }))) as unknown as Json[];
      expect(providers.find((p) => p.service_name === 'google')!.callback_url).toBe(own);
    } finally {
      await setProvider('google', { redirect_url: '' });
    }
  });

  it.each(['github', 'google', 'microsoft', 'apple'] as const)('a good %s configuration passes every check, and no secret comes back', async (name) => {
    const { status, body } = await providerCheck(name);
    expect(status).toBe(200);
    expect(body.checks.filter((c) => !c.ok)).toEqual([]);
    expect(body.ok).toBe(true);
    const expected = ['client_id', 'urls', 'https', 'authorization_endpoint', 'token_endpoint'];
    if (name === 'apple') expected.push('apple_services_id', 'apple_key');
    else expected.push('client_secret');
    if (name !== 'github') expected.push('discovery', 'discovery_endpoints', 'jwks');
    expect(body.checks.map((c) => c.id).sort()).toEqual(expected.sort());
    expect(line(body, 'token_endpoint')!.message).toMatch(/acepta el client id y el secreto/);
    const secret = name === 'apple' ? s.appleKey.privateKeyPem : s.providers[name].app_secret;
    expect(JSON.stringify(body)).not.toContain(secret.slice(0, 40));
  });

  it('answers in the admin’s language', async () => {
    const { body } = await providerCheck('github', 'en');
    expect(line(body, 'token_endpoint')!.message).toMatch(/accepts the client id and secret/);
    const german = await providerCheck('github', 'de');
    expect(line(german.body, 'client_id')!.message).toBe('Die Client-ID ist gesetzt.');
  });

  it('a missing secret is named, and the token endpoint is not asked', async () => {
    await setProvider('google', { app_secret: '' });
    try {
      const { body } = await providerCheck('google');
      expect(body.ok).toBe(false);
      expect(line(body, 'client_secret')).toMatchObject({ ok: false, message: expect.stringMatching(/Falta el secreto \(app_secret\)/) });
      expect(line(body, 'token_endpoint')).toBeUndefined();
      // The rest still passes: only the secret is wrong.
      expect(body.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['client_secret']);
    } finally {
      await setProvider('google');
    }
  });

  it('a missing client id is named', async () => {
    await setProvider('microsoft', { app_id: '' });
    try {
      const { body } = await providerCheck('microsoft');
      expect(line(body, 'client_id')).toMatchObject({ ok: false, message: expect.stringMatching(/Falta el client id/) });
    } finally {
      await setProvider('microsoft');
    }
  });

  it('a wrong discovery URL is named: the document is not there', async () => {
    await setProvider('google', { base_url: s.github.url });
    try {
      const { body } = await providerCheck('google');
      expect(body.ok).toBe(false);
      expect(line(body, 'discovery')).toMatchObject({
        ok: false,
        message: `${s.github.url}/.well-known/openid-configuration responde HTTP 404: revisa base_url.`,
      });
    } finally {
      await setProvider('google');
    }
  });

  it('a base_url of another issuer is named: the issuer does not match', async () => {
    await setProvider('google', { base_url: `${s.apple.url}/` });
    try {
      const { body } = await providerCheck('google');
      // The Apple stand-in's discovery answers, with its own issuer: the document is someone else's endpoints.
      expect(line(body, 'discovery_endpoints')).toMatchObject({ ok: false, message: expect.stringContaining('auth_url') });
    } finally {
      await setProvider('google');
    }
  });

  it('an unreachable token endpoint is named', async () => {
    const dead = `http://127.0.0.1:${closedPort}/login/oauth/access_token`;
    await setProvider('github', { token_url: dead });
    try {
      const { body } = await providerCheck('github');
      expect(line(body, 'token_endpoint')).toMatchObject({ ok: false, message: `${dead} no responde (ECONNREFUSED).` });
      expect(line(body, 'authorization_endpoint')!.ok).toBe(true);
    } finally {
      await setProvider('github');
    }
  });

  it('a wrong client secret is named (GitHub’s incorrect_client_credentials, OpenID Connect’s invalid_client)', async () => {
    await setProvider('github', { app_secret: 'not-the-secret' });
    await setProvider('microsoft', { app_secret: 'not-the-secret' });
    try {
      const github = (await providerCheck('github')).body;
      expect(line(github, 'token_endpoint')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/rechaza el client id o el secreto \(incorrect_client_credentials\)/),
      });
      const microsoft = (await providerCheck('microsoft')).body;
      expect(line(microsoft, 'token_endpoint')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/rechaza el client id o el secreto \(invalid_client\)/),
      });
    } finally {
      await setProvider('github');
      await setProvider('microsoft');
    }
  });

  it('Apple: another team key is refused by Apple; a malformed key, team id or Services ID is named before any request', async () => {
    const other = await exportPKCS8((await generateKeyPair('ES256', { extractable: true })).privateKey);
    const secret = (changes: Record<string, string>) =>
      JSON.stringify({ team_id: 'TEAM123456', key_id: 'KEY1234567', private_key: s.appleKey.privateKeyPem, ...changes });
    await setProvider('apple', { app_secret: secret({ private_key: other }) });
    try {
      expect(line((await providerCheck('apple')).body, 'token_endpoint')).toMatchObject({ ok: false, message: expect.stringContaining('(invalid_client)') });
      await setProvider('apple', { app_secret: secret({ team_id: 'team' }) });
      let body = (await providerCheck('apple')).body;
      expect(line(body, 'apple_key')).toMatchObject({ ok: false, message: expect.stringContaining('team_id') });
      expect(line(body, 'token_endpoint')).toBeUndefined();
      await setProvider('apple', { app_secret: secret({ private_key: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' }) });
      expect(line((await providerCheck('apple')).body, 'apple_key')).toMatchObject({ ok: false, message: expect.stringContaining('.p8') });
      await setProvider('apple', { app_secret: 'just a string' });
      expect(line((await providerCheck('apple')).body, 'apple_key')).toMatchObject({ ok: false, message: expect.stringContaining('JSON') });
      await setProvider('apple', { app_id: 'TEAM123456' });
      body = (await providerCheck('apple')).body;
      expect(line(body, 'apple_services_id')).toMatchObject({ ok: false, message: expect.stringContaining('Services ID') });
    } finally {
      await setProvider('apple');
    }
  });

  it('services: a good configuration passes (Basic or body, JSON bodies, the API key header), each as Conectar speaks to it', async () => {
    for (const name of ['github', 'notion', 'destiny2']) {
      const { status, body } = await serviceCheck(name);
      expect({ name, status, failed: body.checks.filter((c) => !c.ok) }).toEqual({ name, status: 200, failed: [] });
      expect(line(body, 'token_endpoint')!.ok).toBe(true);
    }
    expect(line((await serviceCheck('destiny2')).body, 'api_key')!.ok).toBe(true);
  });

  it('services: a missing API key, a wrong secret and an unreachable token URL are named', async () => {
    await setService('destiny2', { api_key: '' });
    await setService('notion', { app_secret: 'wrong' });
    const dead = `http://127.0.0.1:${closedPort}/oauth/token`;
    await setService('github', { token_url: dead });
    try {
      const destiny = (await serviceCheck('destiny2')).body;
      expect(line(destiny, 'api_key')).toMatchObject({ ok: false, message: expect.stringContaining('X-API-Key') });
      expect(line(destiny, 'token_endpoint')).toBeUndefined();
      expect(line((await serviceCheck('notion')).body, 'token_endpoint')).toMatchObject({ ok: false, message: expect.stringContaining('(invalid_client)') });
      expect(line((await serviceCheck('github')).body, 'token_endpoint')).toMatchObject({ ok: false, message: `${dead} no responde (ECONNREFUSED).` });
    } finally {
      await setService('destiny2');
      await setService('notion');
      await setService('github');
    }
  });

  it('services: an unconfigured row says what is missing; githublogin points at its login provider', async () => {
    const spotify = (await serviceCheck('spotify')).body;
    expect(spotify.ok).toBe(false);
    expect(line(spotify, 'client_id')!.ok).toBe(false);
    expect(line(spotify, 'client_secret')!.ok).toBe(false);
    expect(line(spotify, 'token_endpoint')).toBeUndefined();
    const githublogin = (await serviceCheck('githublogin')).body;
    expect(githublogin.checks).toEqual([{ id: 'login_provider', ok: true, message: expect.stringContaining('Login Providers') }]);
  });

  it('is for admins only, refuses unknown ids, and is written in the audit log', async () => {
    const as = (token: string | undefined, path: string) => t.fetch(path, { method: 'POST', headers: token ? bearer(token) : {} });
    expect((await as(person.token, `/api/login-providers/${providerIds.github}/check`)).status).toBe(403);
    expect((await as(person.token, `/api/external-services/${serviceIds.github}/check`)).status).toBe(403);
    expect((await as(undefined, `/api/login-providers/${providerIds.github}/check`)).status).toBe(401);
    const unknown = await as(admin.token, '/api/login-providers/00000000-0000-4000-8000-000000000000/check');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect((await as(admin.token, '/api/external-services/00000000-0000-4000-8000-000000000000/check')).status).toBe(404);
    expect((await as(admin.token, '/api/login-providers/not-a-uuid/check')).status).toBe(400);
    const audit = await t.db.query<{ action: string; target_id: string; details: Json }>(
      `select action, target_id, details from audit_events where action in ('admin.login_provider_checked', 'admin.service_checked') order by at`,
    );
    expect(audit.rows.map((row) => row.action)).toEqual(expect.arrayContaining(['admin.login_provider_checked', 'admin.service_checked']));
    expect(audit.rows.find((row) => row.target_id === providerIds.github)).toBeDefined();
  });

  it('is rate-limited per admin (each check makes outbound requests)', async () => {
    const [other] = (await seedUsers(t.db, 1, 'admin')) as [SeededUser];
    // spotify has no app: its check makes no request, so the loop is cheap.
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await t.fetch(`/api/external-services/${serviceIds.spotify}/check`, { method: 'POST', headers: bearer(other.token) })).status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another admin is not slowed down by this one.
    expect((await serviceCheck('spotify')).status).toBe(200);
  });
});
