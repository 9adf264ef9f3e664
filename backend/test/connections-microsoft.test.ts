import { freePort } from '@life/test-support';
import { followAuthorize, startServiceStandIns, type ServiceStandIn, type ServiceStandIns } from '@life/test-support/standins/services';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const REDIRECT = 'http://127.0.0.1:7777/callback';

/**
 * Microsoft Cloud (the landing's card, catalog key `microsoft`) connected through its stand-in, which
 * speaks the Microsoft identity platform v2 token endpoint and Microsoft Graph: authorize with PKCE
 * and offline_access, the callback, the code exchange, a refresh on read (a new refresh token each
 * time), and Graph's OneDrive and Outlook calls through the authorization server's proxy.
 */
describe('Microsoft Cloud: connect, refresh and call Graph through the proxy (real PostgreSQL + Redis, stand-in)', () => {
  let stand: ServiceStandIns;
  let microsoft: ServiceStandIn;
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;

  const json = async (response: Response) => (await response.json()) as Json;
  const asAdmin = (path: string, method: string, body?: unknown) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(admin.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const cards = async (user: SeededUser) => (await json(await t.fetch('/api/external-services/all', { headers: bearer(user.token) }))) as unknown as Json[];

  beforeAll(async () => {
    stand = await startServiceStandIns({ families: ['microsoft'] });
    microsoft = stand.microsoft!;
    const port = await freePort();
    t = await startTestApp({ role: 'web', env: { PORT: String(port), APP_URL: `http://127.0.0.1:${port}` } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await t?.close();
    await stand?.close();
  });

  it('is in the catalog with Microsoft’s real endpoints and scopes', async () => {
    const row = (await cards(admin)).find((card) => card.service_name === 'microsoft');
    expect(row).toMatchObject({
      service_type: 'archivos',
      status: 'active',
      connected: false,
      auth_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
      token_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      base_url: 'https://graph.microsoft.com/v1.0',
      user_url: 'https://graph.microsoft.com/v1.0/me',
      revoke_style: 'none',
    });
    expect(String(row!.scopes).split(' ')).toEqual(expect.arrayContaining(['offline_access', 'User.Read', 'Files.Read', 'Calendars.Read', 'Mail.Read']));
    // Its scope for apps is known to the authorization server.
    const discovery = await json(await t.fetch('/.well-known/openid-configuration'));
    expect(discovery.scopes_supported).toContain('service:microsoft');
  });

  it('connects through the identity platform v2, refreshes with a new refresh token, and proxies OneDrive and Outlook calls', async () => {
    // The admin points the row at the stand-in, keeping the catalog's scopes (offline_access among them).
    const id = (await cards(admin)).find((card) => card.service_name === 'microsoft')!.id as string;
    expect((await asAdmin(`/api/external-services/${id}`, 'PUT', stand.rows.microsoft)).status).toBe(200);

    const auth = await json(await t.fetch('/api/external-services/microsoft/auth', { method: 'POST', headers: bearer(person.token) }));
    const authUrl = new URL(auth.auth_url as string);
    expect(authUrl.pathname).toBe('/common/oauth2/v2.0/authorize');
    expect(authUrl.searchParams.get('scope')!.split(' ')).toContain('offline_access');
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const back = await followAuthorize(authUrl.toString());
    const done = await t.fetch(`/callback/microsoft?${back.searchParams}`, { headers: { ...bearer(person.token), accept: 'application/json' } });
    expect(done.status).toBe(200);
    expect(await json(done)).toMatchObject({ service: 'microsoft', connected: true, account_name: 'Mara Microsoft' });

    const code = microsoft.tokenCalls.find((call) => call.grantType === 'authorization_code')!;
    expect(code).toMatchObject({ clientAuth: 'body', status: 200 });
    expect(code.body.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(microsoft.userCalls[0]).toMatchObject({ path: '/v1.0/me', scheme: 'Bearer' });
    expect(microsoft.issued.refreshTokens).toHaveLength(1);
    const firstRefreshToken = microsoft.issued.refreshTokens[0]!;
    const card = (await cards(person)).find((c) => c.service_name === 'microsoft');
    expect(card).toMatchObject({ connected: true, account_name: 'Mara Microsoft' });

    // An app allowed service:microsoft calls Graph through the proxy. The token is about to expire,
    // so the proxy refreshes it first: one refresh_token call, and Microsoft's new refresh token replaces the old.
    await t.db.query(
      `update service_connections set expires_at = now() + interval '10 seconds', last_refresh_at = now() - interval '1 hour' where user_id = $1 and service_id = (select id from external_services where service_name = 'microsoft')`,
      [person.id],
    );
    const appResponse = await asAdmin('/oauth_clients', 'POST', {
      name: 'Agenda Demo',
      redirect_uris: [REDIRECT],
      allowed_scopes: ['openid', 'service:microsoft'],
    });
    expect(appResponse.status).toBe(201);
    const app = await json(appResponse);
    const consent = await json(
      await t.fetch('/oauth/authorize', {
        method: 'POST',
        headers: { ...bearer(person.token), 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: app.client_id, redirect_uri: REDIRECT, scope: 'service:microsoft', state: 'st', action: 'allow' }),
      }),
    );
    const appCode = new URL(consent.redirect_to as string).searchParams.get('code')!;
    const tokens = await json(
      await t.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: appCode,
          redirect_uri: REDIRECT,
          client_id: app.client_id as string,
          client_secret: app.client_secret as string,
        }).toString(),
      }),
    );
    expect(tokens.access_token).toBeTruthy();

    const files = await t.fetch('/api/v1/services/microsoft/proxy/me/drive/root/children', { headers: bearer(tokens.access_token as string) });
    expect(files.status).toBe(200);
    expect(files.headers.get('x-life-proxied-service')).toBe('microsoft');
    expect(((await json(files)).value as Json[]).map((item) => item.name)).toEqual(['Documentos', 'Presupuesto.xlsx']);

    const refresh = microsoft.tokenCalls.filter((call) => call.grantType === 'refresh_token');
    expect(refresh).toHaveLength(1);
    expect(refresh[0]).toMatchObject({ clientAuth: 'body', status: 200 });
    expect(refresh[0]!.body.refresh_token).toBe(firstRefreshToken);
    expect(microsoft.refreshTokenAlive(firstRefreshToken)).toBe(false);
    expect(microsoft.issued.refreshTokens).toHaveLength(2);

    const events = await t.fetch('/api/v1/services/microsoft/proxy/me/events', { headers: bearer(tokens.access_token as string) });
    expect(events.status).toBe(200);
    expect((await json(events)).value[0]).toMatchObject({ subject: 'Revisión trimestral', start: { timeZone: 'UTC' } });
    const mail = await t.fetch('/api/v1/services/microsoft/proxy/me/messages?$top=1', { headers: bearer(tokens.access_token as string) });
    expect(mail.status).toBe(200);
    expect((await json(mail)).value[0]).toMatchObject({ subject: 'Tu factura de noviembre', isRead: false });
    // The refreshed token is fresh: the later calls needed no refresh, and the proxy used the newest access token.
    expect(microsoft.counts.refresh_token).toBe(1);
    const graphCalls = microsoft.userCalls.filter((call) => call.path !== '/v1.0/me');
    expect(graphCalls.map((call) => call.path)).toEqual(['/v1.0/me/drive/root/children', '/v1.0/me/events', '/v1.0/me/messages']);

    // The stored refresh token is the new one: a refresh from the worker's path works with it.
    const [row] = (
      await t.db.query<Json>(
        `select c.refresh_token_encrypted, c.status from service_connections c join external_services s on s.id = c.service_id where s.service_name = 'microsoft' and c.user_id = $1`,
        [person.id],
      )
    ).rows;
    expect(row).toMatchObject({ status: 'connected' });
    expect(String(row!.refresh_token_encrypted)).not.toContain(firstRefreshToken);
  });

  it('gives no refresh token without offline_access, as Microsoft does', async () => {
    const id = (await cards(admin)).find((card) => card.service_name === 'microsoft')!.id as string;
    expect((await asAdmin(`/api/external-services/${id}`, 'PUT', { ...stand.rows.microsoft, scopes: 'openid User.Read Files.Read' })).status).toBe(200);
    const [other] = await seedUsers(t.db, 1);
    const auth = await json(await t.fetch('/api/external-services/microsoft/auth', { method: 'POST', headers: bearer(other!.token) }));
    const back = await followAuthorize(auth.auth_url as string);
    const before = microsoft.issued.refreshTokens.length;
    const done = await t.fetch(`/callback/microsoft?${back.searchParams}`, { headers: { ...bearer(other!.token), accept: 'application/json' } });
    expect(done.status).toBe(200);
    expect(microsoft.issued.refreshTokens).toHaveLength(before);
    const [row] = (
      await t.db.query<Json>(
        `select c.refresh_token_encrypted from service_connections c join external_services s on s.id = c.service_id where s.service_name = 'microsoft' and c.user_id = $1`,
        [other!.id],
      )
    ).rows;
    expect(row!.refresh_token_encrypted).toBeNull();
  });
});
