import { freePort, pollUntil } from '@life/test-support';
import { followAuthorize, startServiceStandIns, type ServiceStandIn, type ServiceStandIns } from '@life/test-support/standins/services';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { SmtpStandIn } from './helpers/smtp-standin.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const REDIRECT = 'http://127.0.0.1:7777/callback';
const CONTACT_FROM = 'Life <no-reply@life.example>';

/**
 * Issue 16 (decisions 0041, 0042): Philips Hue made usable (the bridge linked after the OAuth step,
 * its application key sealed and sent by the proxy), World of Warcraft in the region the person
 * picks, a Battle.net token that expires with no refresh token marked as needing reconnection (card
 * and 409), and one e-mail per break in the person's language. Real PostgreSQL, Redis, workers
 * (outbox, contact-mail, token-refresh sweep) and an SMTP stand-in; the services' stand-ins speak
 * Hue's remote API and Battle.net's regional profile API.
 */
describe('Philips Hue and World of Warcraft: usable connections, regions, expiry and the reconnect e-mail', () => {
  const smtp = new SmtpStandIn();
  let stand: ServiceStandIns;
  let hue: ServiceStandIn;
  let battlenet: ServiceStandIn;
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
  const cards = async (user: SeededUser) => (await json(await t.fetch('/api/external-services/all', { headers: bearer(user.token) }))) as unknown as Json[];
  const card = async (user: SeededUser, service: string) => (await cards(user)).find((c) => c.service_name === service)!;
  const startAuth = (user: SeededUser, service: string, body?: unknown) =>
    t.fetch(`/api/external-services/${service}/auth`, {
      method: 'POST',
      headers: { ...bearer(user.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** Conectar → the stand-in's page → Autorizar → the SPA's callback call, in `language`. */
  const connect = async (user: SeededUser, service: string, body?: unknown, language = 'es') => {
    const auth = await startAuth(user, service, body);
    expect(auth.status).toBe(200);
    const authUrl = (await json(auth)).auth_url as string;
    const back = await followAuthorize(authUrl);
    const done = await t.fetch(`/callback/${service}?${back.searchParams}`, {
      headers: { ...bearer(user.token), accept: 'application/json', 'accept-language': language },
    });
    return { authUrl: new URL(authUrl), done };
  };
  const proxy = (path: string) => t.fetch(`/api/v1/services/${path}`, { headers: bearer(appToken) });
  const connectionRow = async (user: SeededUser, service: string) =>
    (
      await t.db.query<Json>(
        `select c.* from service_connections c join external_services s on s.id = c.service_id where c.user_id = $1 and s.service_name = $2`,
        [user.id, service],
      )
    ).rows[0];
  const mailsTo = (address: string) => smtp.received.filter((r) => r.envelope.to.includes(address));

  beforeAll(async () => {
    await smtp.start(0);
    stand = await startServiceStandIns({ families: ['hue', 'battlenet'], rowsByFamily: { hue: ['philipshue'], battlenet: ['wow'] } });
    hue = stand.hue!;
    battlenet = stand.battlenet!;
    const port = await freePort();
    t = await startTestApp({
      role: 'all',
      env: {
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: smtp.url,
        CONTACT_FROM,
        CONTACT_RETRY_DELAY_MS: '300',
        TOKEN_REFRESH_SWEEP_MS: '300',
        OUTBOX_SWEEP_MS: '300',
      },
    });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await t?.close();
    await stand?.close();
    await smtp.stop();
  });

  it('seeds World of Warcraft with its five regions and a per-region API host, and Philips Hue with its remote API', async () => {
    const wow = await card(admin, 'wow');
    expect(wow).toMatchObject({ regions: ['us', 'eu', 'kr', 'tw', 'cn'], region: null, base_url: 'https://{region}.api.blizzard.com' });
    expect((await card(admin, 'philipshue')).base_url).toBe('https://api.meethue.com');
    expect((await card(person, 'github')).regions).toEqual([]);

    // The admin points both rows at the stand-ins (the wow row's regions all on the stand-in's host).
    for (const service of ['philipshue', 'wow']) {
      const id = (await card(admin, service)).id as string;
      const saved = await asAdmin(`/api/external-services/${id}`, 'PUT', stand.rows[service]);
      expect(saved.status).toBe(200);
    }
    expect((await card(person, 'wow')).regions).toEqual(['us', 'eu', 'kr', 'tw', 'cn']);
    // Regions are checked like the row's own URLs: a region twice, a bad key or a bad URL is a 400 and changes nothing.
    const wowId = (await card(admin, 'wow')).id as string;
    for (const regions of [
      [{ region: 'eu' }, { region: 'eu' }],
      [{ region: 'EU' }],
      [{ region: 'eu', base_url: 'ftp://example.com' }],
      [{ region: 'eu', extra: 'x' }],
    ]) {
      const refused = await asAdmin(`/api/external-services/${wowId}`, 'PUT', { ...stand.rows.wow, region_settings: regions });
      expect(refused.status).toBe(400);
      expect((await json(refused)).error).toBe('validation_failed');
    }
    expect((await card(person, 'wow')).regions).toEqual(['us', 'eu', 'kr', 'tw', 'cn']);
    // The admin dialog sends the card back as it got it (`regions`: the keys): that changes no region.
    const full = await card(admin, 'wow');
    const resaved = await asAdmin(`/api/external-services/${wowId}`, 'PUT', { ...full, description: 'Tus personajes.' });
    expect(resaved.status).toBe(200);
    expect((await card(person, 'wow')).regions).toEqual(['us', 'eu', 'kr', 'tw', 'cn']);

    // An app allowed both services, for the proxy calls below.
    const created = await asAdmin('/oauth_clients', 'POST', {
      name: 'Casa y juegos',
      redirect_uris: [REDIRECT],
      allowed_scopes: ['openid', 'service:philipshue', 'service:wow'],
    });
    expect(created.status).toBe(201);
    const app = await json(created);
    const consent = await json(
      await t.fetch('/oauth/authorize', {
        method: 'POST',
        headers: { ...bearer(person.token), 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: app.client_id, redirect_uri: REDIRECT, scope: 'service:philipshue service:wow', state: 'st', action: 'allow' }),
      }),
    );
    const tokens = await json(
      await t.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: new URL(consent.redirect_to as string).searchParams.get('code')!,
          redirect_uri: REDIRECT,
          client_id: app.client_id as string,
          client_secret: app.client_secret as string,
        }).toString(),
      }),
    );
    appToken = tokens.access_token as string;
    expect(appToken).toBeTruthy();
  });

  it('refuses a bridge that will not link: 502 with a clear message and no connection kept', async () => {
    hue.apiState!.refuseLink = true;
    const { done } = await connect(person, 'philipshue');
    expect(done.status).toBe(502);
    const body = await json(done);
    expect(body.error).toBe('provider_error');
    expect(body.message).toContain('Philips Hue');
    expect(await connectionRow(person, 'philipshue')).toBeUndefined();
    expect(hue.apiCalls.find((call) => call.path === '/route/api' && call.method === 'POST')?.status).toBe(200);
    expect(hue.apiState!.users.size).toBe(0);
    hue.reset();
  });

  it('links the Hue bridge after the OAuth step, seals its application key, and the proxy sends it with every call', async () => {
    const { done } = await connect(person, 'philipshue');
    expect(done.status).toBe(200);
    // The remote link button, then the bridge user, both with the person's new Bearer token.
    const link = hue.apiCalls.filter((call) => call.path.startsWith('/route/api'));
    expect(link.map((call) => `${call.method} ${call.path} ${call.scheme}`)).toEqual(['PUT /route/api/0/config Bearer', 'POST /route/api Bearer']);
    expect(hue.apiState!.users.size).toBe(1);
    const [applicationKey] = [...hue.apiState!.users.keys()];
    expect([...hue.apiState!.users.values()][0]!.devicetype).toMatch(/^life#/);

    const row = await connectionRow(person, 'philipshue');
    expect(row.link_key_encrypted).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(applicationKey);
    expect(await card(person, 'philipshue')).toMatchObject({ connected: true, needs_reconnect: false });

    // An app reads the lights through the proxy: Bearer + hue-application-key, which the app never sees.
    const lights = await proxy('philipshue/proxy/route/clip/v2/resource/light');
    expect(lights.status).toBe(200);
    expect(((await json(lights)).data as Json[]).map((light) => light.metadata.name)).toEqual(['Salón', 'Cocina']);
    const call = hue.apiCalls.find((c) => c.path === '/route/clip/v2/resource/light')!;
    expect(call).toMatchObject({ scheme: 'Bearer', status: 200 });
    expect(call.headers['hue-application-key']).toBe(applicationKey);

    // A refresh (Hue rotates refresh tokens) keeps the bridge key: the next call still works.
    await t.db.query(`update service_connections set expires_at = now() + interval '10 seconds', last_refresh_at = now() - interval '7 days' where id = $1`, [
      row.id,
    ]);
    const again = await proxy('philipshue/proxy/route/clip/v2/resource/bridge');
    expect(again.status).toBe(200);
    expect(hue.tokenCalls.filter((c) => c.grantType === 'refresh_token').map((c) => c.status)).toEqual([200]);
    expect(hue.apiCalls.at(-1)!.headers['hue-application-key']).toBe(applicationKey);
  });

  it('connects World of Warcraft in the region the person picks and calls that region with its profile namespace', async () => {
    // Bad regions are a 4xx, never a 500, and start nothing.
    const before = battlenet.authorizeRequests.length;
    expect((await json(await startAuth(person, 'wow', { region: 'xx' }))).error).toBe('invalid_region');
    expect((await json(await startAuth(person, 'wow', { region: 'EU!' }))).error).toBe('validation_failed');
    expect((await json(await startAuth(person, 'wow', { region: 'eu', extra: 1 }))).error).toBe('validation_failed');
    expect((await json(await startAuth(person, 'philipshue', { region: 'eu' }))).error).toBe('invalid_region');
    expect(battlenet.authorizeRequests.length).toBe(before);

    const { done } = await connect(person, 'wow', { region: 'kr' }, 'fr');
    expect(done.status).toBe(200);
    expect(await json(done)).toMatchObject({ service: 'wow', connected: true, account_name: 'Thrall#1111' });
    expect(await card(person, 'wow')).toMatchObject({ connected: true, needs_reconnect: false, region: 'kr' });
    expect(await connectionRow(person, 'wow')).toMatchObject({ region: 'kr', language: 'fr', refresh_token_encrypted: null });

    const profile = await proxy('wow/proxy/profile/user/wow?locale=ko_KR');
    expect(profile.status).toBe(200);
    expect(await json(profile)).toMatchObject({ region: 'kr' });
    expect(battlenet.apiCalls.at(-1)).toMatchObject({ path: '/kr/profile/user/wow', query: { namespace: 'profile-kr', locale: 'ko_KR' }, scheme: 'Bearer' });
    // The app's own namespace wins over the default.
    expect((await proxy('wow/proxy/profile/user/wow?namespace=profile-eu')).status).toBe(404);
  });

  it('marks an expired Battle.net connection as needing reconnection (card and 409) and mails the person once, in their language', async () => {
    // A day passes: Battle.net refuses the token, and there is no refresh token to get another.
    battlenet.expireAccessTokens();
    const row = await connectionRow(person, 'wow');
    await t.db.query(`update service_connections set expires_at = now() - interval '1 minute' where id = $1`, [row.id]);

    expect(await card(person, 'wow')).toMatchObject({ connected: false, needs_reconnect: true });
    const refused = await proxy('wow/proxy/profile/user/wow');
    expect(refused.status).toBe(409);
    const error = await json(refused);
    expect(error.error).toBe('needs_reconnect');
    expect(error.message).toContain('World of Warcraft');
    expect((await connectionRow(person, 'wow')).status).toBe('needs_reconnect');

    await pollUntil(() => mailsTo(person.email).length >= 1, 'the reconnect e-mail');
    const [mail] = mailsTo(person.email);
    expect(mail!.mail.subject).toBe('Reconnectez World of Warcraft à Life');
    expect(mail!.mail.text).toContain('Reconnecter');
    expect(mail!.mail.text).toContain('/dashboard');
    expect(mail!.mail.from?.text).toContain('no-reply@life.example');

    // The same break delivered again (the outbox delivers at least once): no second mail.
    const [notice] = (await t.db.query<Json>(`select * from reconnect_notices where connection_id = $1`, [row.id])).rows;
    expect(notice).toMatchObject({ status: 'sent', language: 'fr', service_name: 'wow' });
    const [message] = (await t.db.query<Json>(`select * from outbox_messages where payload->>'eventId' = $1`, [notice!.break_id])).rows;
    const copy = (
      await t.db.query<Json>(
        `insert into outbox_messages (id, type, payload, created_at) values (gen_random_uuid(), $1, $2, now() - interval '1 minute') returning id`,
        [message!.type, message!.payload],
      )
    ).rows[0]!;
    await pollUntil(
      async () => (await t.db.query<Json>(`select delivered_at from outbox_messages where id = $1`, [copy.id])).rows[0]?.delivered_at != null,
      'the repeated event to be delivered',
    );
    expect((await t.db.query<Json>(`select count(*)::int as n from reconnect_notices where connection_id = $1`, [row.id])).rows[0]!.n).toBe(1);
    expect(mailsTo(person.email)).toHaveLength(1);
  });

  it('mails again for a new break after a reconnect, and the reconnect heals the card', async () => {
    const { done } = await connect(person, 'wow', { region: 'eu' }, 'en');
    expect(done.status).toBe(200);
    expect(await card(person, 'wow')).toMatchObject({ connected: true, needs_reconnect: false, region: 'eu' });
    expect((await proxy('wow/proxy/profile/user/wow')).status).toBe(200);
    expect(battlenet.apiCalls.at(-1)).toMatchObject({ path: '/eu/profile/user/wow', query: { namespace: 'profile-eu' } });

    // The next day: this time nobody reads it; the refresh sweep notices the expiry on its own.
    battlenet.expireAccessTokens();
    const row = await connectionRow(person, 'wow');
    await t.db.query(`update service_connections set expires_at = now() - interval '1 minute' where id = $1`, [row.id]);
    await pollUntil(() => mailsTo(person.email).length >= 2, 'the second reconnect e-mail');
    const second = mailsTo(person.email)[1]!;
    expect(second.mail.subject).toBe('Reconnect World of Warcraft to Life');
    expect((await connectionRow(person, 'wow')).status).toBe('needs_reconnect');
    const notices = (await t.db.query<Json>(`select break_id from reconnect_notices where connection_id = $1`, [row.id])).rows;
    expect(new Set(notices.map((n) => n.break_id)).size).toBe(2);
  });
});
