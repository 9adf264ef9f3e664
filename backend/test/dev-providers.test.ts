import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, pollUntil } from '@life/test-support';
import { followAuthorize } from '@life/test-support/standins/services';
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

describe('a fresh install in development: the development providers and the development Stripe (DEV_SERVICES, DEV_STRIPE)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  const json = async (response: Response) => (await response.json()) as Json;
  const cards = async (user: SeededUser) =>
    new Map(
      ((await json(await t.fetch('/api/external-services/all', { headers: bearer(user.token) }))) as unknown as Json[]).map((card) => [
        card.service_name as string,
        card,
      ]),
    );

  beforeAll(async () => {
    // The stand-ins redirect to the app's public URL and the development Stripe posts its webhook there: fix the port first.
    const port = await freePort();
    t = await startTestApp({
      role: 'all',
      env: { NODE_ENV: 'development', DEV_LOGIN: 'off', PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, BILLING_SWEEP_MS: '500' },
    });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('says on every card, before any click, whether Conectar works and with what', async () => {
    const list = await cards(person);
    // No catalog row has credentials: every active one is served by its development provider.
    for (const name of ['github', 'spotify', 'philipshue', 'youtube', 'googlecalendar', 'googledrive', 'soundcloud', 'notion', 'wow', 'destiny2']) {
      expect([name, list.get(name)?.app_id, list.get(name)?.unavailable_reason, list.get(name)?.dev_provider]).toEqual([name, null, null, true]);
    }
    // Maintenance wins over the development provider: Google Fit and Fitbit cannot be connected.
    for (const name of ['googlefit', 'fitbit']) {
      expect([name, list.get(name)?.unavailable_reason, list.get(name)?.dev_provider]).toEqual([name, 'maintenance', false]);
      const refused = await t.fetch(`/api/external-services/${name}/auth`, { method: 'POST', headers: bearer(person.token) });
      expect([refused.status, (await json(refused)).error]).toEqual([409, 'service_not_active']);
    }
    expect(list.get('githublogin')).toMatchObject({ unavailable_reason: null, dev_provider: false });
    // Nothing was written to the catalog: the rows still have no app.
    const stored = await t.db.query<Json>(`select count(*)::int as n from external_services where app_id is not null or app_secret_encrypted is not null`);
    expect(stored.rows[0]!.n).toBe(0);
  });

  it('connects spotify through its development provider (authorize → labelled page → callback → connected), refreshes it and calls its API through the proxy', async () => {
    const auth = await t.fetch('/api/external-services/spotify/auth', { method: 'POST', headers: bearer(person.token) });
    expect(auth.status).toBe(200);
    const authUrl = new URL((await json(auth)).auth_url as string);
    expect(authUrl.hostname).toBe('127.0.0.1');
    expect(authUrl.origin).not.toBe(new URL(t.url).origin);
    expect(authUrl.searchParams.get('redirect_uri')).toBe(`${t.url}/callback/spotify`);
    expect(authUrl.searchParams.get('scope')).toBe('user-read-email user-read-private user-read-currently-playing user-read-recently-played');

    // The page says, in the browser's language, that it is a development stand-in and not Spotify.
    const pageEs = await (await fetch(authUrl, { headers: { 'accept-language': 'es-ES,es;q=0.9' } })).text();
    expect(pageEs).toContain('Spotify: proveedor de desarrollo (stand-in)');
    expect(pageEs).toContain('No es el servicio real');
    const pageEn = await (await fetch(authUrl, { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).text();
    expect(pageEn).toContain('Spotify: development stand-in');

    const target = await followAuthorize(authUrl.toString());
    expect(`${target.origin}${target.pathname}`).toBe(`${t.url}/callback/spotify`);
    const done = await t.fetch(`/callback/spotify?${target.searchParams}`, { headers: { ...bearer(person.token), accept: 'application/json' } });
    expect([done.status, (await json(done)).account_name]).toEqual([200, 'Sofía Spotify']);
    expect((await cards(person)).get('spotify')).toMatchObject({ connected: true, account_name: 'Sofía Spotify', unavailable_reason: null });

    const [before] = (
      await t.db.query<Json>(`select c.* from service_connections c join external_services s on s.id = c.service_id where s.service_name = 'spotify'`)
    ).rows;
    expect(before).toMatchObject({ status: 'connected', client_source: 'app' });
    expect(before!.refresh_token_encrypted).toBeTruthy();

    // An app the person allowed to use spotify on their behalf.
    const created = await t.fetch('/oauth_clients', {
      method: 'POST',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Agenda Demo', redirect_uris: [REDIRECT], allowed_scopes: ['openid', 'services:read', 'service:spotify'] }),
    });
    expect(created.status).toBe(201);
    const app = await json(created);
    const consent = await t.fetch('/oauth/authorize', {
      method: 'POST',
      headers: { ...bearer(person.token), 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: app.client_id, redirect_uri: REDIRECT, scope: 'service:spotify', state: 'st', action: 'allow' }),
    });
    const code = new URL((await json(consent)).redirect_to as string).searchParams.get('code')!;
    const token = await json(
      await t.fetch(
        '/oauth/token',
        form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret }),
      ),
    );
    expect(token.access_token).toBeTruthy();

    // The access token is about to expire: the proxy call refreshes it first at the development provider.
    await t.db.query(`update service_connections set expires_at = now() + interval '60 seconds', last_refresh_at = now() - interval '1 hour' where id = $1`, [
      before!.id,
    ]);
    const proxied = await t.fetch('/api/v1/services/spotify/proxy/me', { headers: bearer(token.access_token as string) });
    expect(proxied.status).toBe(200);
    expect(await json(proxied)).toMatchObject({ display_name: 'Sofía Spotify' });
    const [after] = (await t.db.query<Json>('select * from service_connections where id = $1', [before!.id])).rows;
    expect(after!.access_token_encrypted).not.toBe(before!.access_token_encrypted);
    expect(new Date(after!.expires_at as string).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(after!.refresh_failures).toBe(0);

    // Disconnecting works too (Spotify has no revocation endpoint: the card says where to finish).
    const disconnected = await t.fetch('/api/external-services/spotify/connection', { method: 'DELETE', headers: bearer(person.token) });
    expect(disconnected.status).toBe(200);
    expect((await cards(person)).get('spotify')).toMatchObject({ connected: false, unavailable_reason: null, dev_provider: true });
  });

  it('a person’s own credentials win over the development provider', async () => {
    const saved = await t.fetch('/api/external-services-user', {
      method: 'POST',
      headers: { ...bearer(person.token), 'content-type': 'application/json' },
      body: JSON.stringify({ service_name: 'notion', client_id: 'my-own-notion-app', client_secret: 'my-own-secret' }),
    });
    expect(saved.status).toBeLessThan(300);
    expect((await cards(person)).get('notion')).toMatchObject({ unavailable_reason: null, dev_provider: false });
    const auth = new URL(
      (await json(await t.fetch('/api/external-services/notion/auth', { method: 'POST', headers: bearer(person.token) }))).auth_url as string,
    );
    expect(auth.origin).toBe('https://api.notion.com');
    expect(auth.searchParams.get('client_id')).toBe('my-own-notion-app');
    // Someone else still gets the development provider.
    expect((await cards(admin)).get('notion')).toMatchObject({ dev_provider: true });
  });

  it('buys an edition through the development Stripe: labelled checkout page, Pagar, a signed webhook to the real endpoint, the membership', async () => {
    const editions = await json(await t.fetch('/api/billing/editions'));
    expect(editions.payments_enabled).toBe(true);

    const checkout = await t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(person.token) });
    expect(checkout.status).toBe(200);
    const { url, edition } = await json(checkout);
    expect(edition).toBe('elite');
    const page = new URL(url as string);
    expect(page.hostname).toBe('127.0.0.1');
    expect(page.origin).not.toBe(new URL(t.url).origin);

    const html = await (await fetch(page, { headers: { 'accept-language': 'es' } })).text();
    expect(html).toContain('Stripe de desarrollo (stand-in)');
    expect(html).toContain('no se cobra nada');
    expect(html).toContain('2,00');
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;

    // A webhook not signed with the development Stripe's secret is refused, as in production.
    const forged = await t.fetch('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: JSON.stringify({ id: 'evt_forged', type: 'checkout.session.completed', data: { object: {} } }),
    });
    expect([forged.status, (await json(forged)).error]).toEqual([400, 'invalid_signature']);

    const paid = await fetch(new URL(action, page), { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${t.url}/profile?checkout=success`);
    const stored = await t.db.query<Json>(`select type from stripe_events`);
    expect(stored.rows).toEqual([{ type: 'checkout.session.completed' }]);

    const membership = await pollUntil(
      async () => {
        const answer = await json(await t.fetch('/api/billing/membership', { headers: bearer(person.token) }));
        return answer.membership ?? undefined;
      },
      'the membership to appear',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(membership).toMatchObject({ edition: 'elite', status: 'active', member_number: 1, price_cents: 200 });
    const again = await t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(person.token) });
    expect([again.status, (await json(again)).error]).toEqual([409, 'already_member']);
  });
});

describe('DEV_SERVICES=off and DEV_STRIPE=off in development: what is not configured says so', () => {
  let t: TestApp;
  let person: SeededUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { NODE_ENV: 'development', DEV_LOGIN: 'off', DEV_SERVICES: 'off', DEV_STRIPE: 'off' } });
    [person] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('cards say not_configured before any click; Conectar answers 503 in the reader’s language; payments are off', async () => {
    const list = (await (await t.fetch('/api/external-services/all', { headers: bearer(person.token) })).json()) as Json[];
    const spotify = list.find((card) => card.service_name === 'spotify')!;
    expect(spotify).toMatchObject({ unavailable_reason: 'not_configured', dev_provider: false });
    expect(list.find((card) => card.service_name === 'googlefit')).toMatchObject({ unavailable_reason: 'maintenance' });

    const refused = await t.fetch('/api/external-services/spotify/auth', { method: 'POST', headers: { ...bearer(person.token), 'accept-language': 'en' } });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      error: 'service_not_configured',
      message: 'spotify is not set up yet: add your own credentials or ask an administrator to set it up.',
    });
    expect(((await (await t.fetch('/api/billing/editions')).json()) as Json).payments_enabled).toBe(false);
  });
});

describe('production refuses the development providers and the development Stripe at boot', () => {
  const mainJs = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
  const production = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    APP_URL: 'https://life.example',
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/life',
    ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
    LOG_LEVEL: 'warn',
  };
  const boot = (env: Record<string, string>) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      let output = '';
      const child = spawn(process.execPath, [mainJs], { env: { ...production, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });

  it.each([
    ['DEV_SERVICES', 'the development providers are local stand-ins, not the real services'],
    ['DEV_STRIPE', 'the development Stripe takes no real payment'],
  ])(
    '%s=on stops the boot with the reason',
    async (setting, reason) => {
      const { code, output } = await boot({ [setting]: 'on' });
      expect(code).toBe(1);
      expect(output).toContain(`${setting}=on is refused when NODE_ENV=production: ${reason}`);
    },
    30_000,
  );
});
