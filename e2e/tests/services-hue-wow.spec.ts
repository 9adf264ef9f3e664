import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startServiceStandIns, type ServiceStandIns } from '@life/test-support/standins/services';
import { animationsSettled, useLanguage } from '../support/a11y.js';
import { seedSession, signIn, takeLock, withDb, type SeededSession } from '../support/db.js';
import { createApp } from '../support/oauth.js';

// Issue 16: Philips Hue and World of Warcraft, each connected from the dashboard through its own
// stand-in (Hue's remote API with the bridge link and CLIP v2; Battle.net per region, 24 h tokens
// and no refresh token), used through the authorization server's proxy by an app, refreshed (Hue
// rotates its refresh tokens; a Battle.net token that expires asks for a reconnect instead) and
// disconnected. The stand-ins run inside this spec, so it can see what they were asked.

const SHOTS = process.env.HUE_WOW_SHOTS_DIR ?? '/tmp/s8-shots/hue-wow';
const REDIRECT = 'http://127.0.0.1:7777/callback';
const tile = (page: Page, service: string) => page.locator(`[data-testid="service-tile"][data-service="${service}"]`);

interface CatalogRow {
  id: string;
  service_name: string;
  [field: string]: unknown;
}

let stand: ServiceStandIns;
let admin: SeededSession;

test.describe.configure({ mode: 'serial' });

let releaseRow: (() => Promise<void>) | undefined;

test.beforeAll(async ({ request }) => {
  // data-rights.spec points philipshue at its own stand-in too: one spec at a time.
  releaseRow = await takeLock('catalog:philipshue');
  stand = await startServiceStandIns({ families: ['hue', 'battlenet'], rowsByFamily: { hue: ['philipshue'], battlenet: ['wow'] } });
  admin = await seedSession('admin');
  const headers = { authorization: `Bearer ${admin.token}` };
  const catalog = (await (await request.get('/api/external-services/all', { headers })).json()) as CatalogRow[];
  for (const service of ['philipshue', 'wow']) {
    const row = catalog.find((entry) => entry.service_name === service)!;
    const response = await request.put(`/api/external-services/${row.id}`, { headers, data: { ...row, ...stand.rows[service] } });
    expect(response.status(), `PUT ${service}: ${await response.text()}`).toBe(200);
  }
});

test.afterAll(async () => {
  await stand?.close();
  await releaseRow?.();
});

/** An app allowed `service:<name>`, authorised by the person (consent through the API), and its access token. */
async function appTokenFor(request: APIRequestContext, person: SeededSession, service: string): Promise<string> {
  const app = await createApp(request, admin.token, { name: `App ${service}`, redirect_uris: [REDIRECT], allowed_scopes: ['openid', `service:${service}`] });
  const consent = await request.post('/oauth/authorize', {
    headers: { authorization: `Bearer ${person.token}` },
    data: { client_id: app.client_id, redirect_uri: REDIRECT, scope: `service:${service}`, state: 'st', action: 'allow' },
  });
  expect(consent.status()).toBe(200);
  const code = new URL(((await consent.json()) as { redirect_to: string }).redirect_to).searchParams.get('code')!;
  const token = await request.post('/oauth/token', {
    form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret! },
  });
  expect(token.status()).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
}

async function connectFromCard(page: Page, service: string, button: 'Conectar' | 'Reconectar' = 'Conectar') {
  const card = tile(page, service);
  await card.getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByTestId('standin-banner')).toBeVisible();
  await page.getByTestId('standin-authorize').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(card).toHaveAttribute('data-connected', 'true');
  await expect(card.getByTestId('service-status')).toHaveText('Conectado');
}

async function disconnectFromCard(page: Page, service: string) {
  const card = tile(page, service);
  page.once('dialog', (dialog) => void dialog.accept());
  await card.getByRole('button', { name: 'Desconectar', exact: true }).click();
  await expect(card).toHaveAttribute('data-connected', 'false');
  await expect(card.getByTestId('service-status')).toHaveText('Desconectado');
}

test('Philips Hue: Conectar links the bridge, an app reads the lights through the proxy with the bridge key, a refresh keeps it, Desconectar', async ({
  page,
  request,
}) => {
  const hue = stand.hue!;
  const person = await seedSession('user');
  await signIn(page, person);
  await page.goto('/dashboard');
  await connectFromCard(page, 'philipshue');

  // After the grant the app pressed the link button remotely and created its bridge user.
  expect(hue.apiCalls.filter((call) => call.path.startsWith('/route/api')).map((call) => `${call.method} ${call.path}`)).toEqual([
    'PUT /route/api/0/config',
    'POST /route/api',
  ]);
  const [applicationKey] = [...hue.apiState!.users.keys()];
  expect(applicationKey).toBeTruthy();

  const token = await appTokenFor(request, person, 'philipshue');
  const lights = await request.get('/api/v1/services/philipshue/proxy/route/clip/v2/resource/light', { headers: { authorization: `Bearer ${token}` } });
  expect(lights.status()).toBe(200);
  expect(((await lights.json()) as { data: { metadata: { name: string } }[] }).data.map((light) => light.metadata.name)).toEqual(['Salón', 'Cocina']);
  expect(hue.apiCalls.at(-1)).toMatchObject({ path: '/route/clip/v2/resource/light', scheme: 'Bearer', status: 200 });
  expect(hue.apiCalls.at(-1)!.headers['hue-application-key']).toBe(applicationKey);

  // The token nears its end: the next proxied call refreshes it first (a new refresh token), and the bridge key stays.
  await withDb((db) =>
    db.query(
      `update service_connections set expires_at = now() + interval '10 seconds', last_refresh_at = now() - interval '7 days'
        where user_id = $1 and service_id = (select id from external_services where service_name = 'philipshue')`,
      [person.user.id],
    ),
  );
  const bridge = await request.get('/api/v1/services/philipshue/proxy/route/clip/v2/resource/bridge', { headers: { authorization: `Bearer ${token}` } });
  expect(bridge.status()).toBe(200);
  expect(hue.tokenCalls.filter((call) => call.grantType === 'refresh_token').map((call) => call.status)).toEqual([200]);
  expect(hue.apiCalls.at(-1)!.headers['hue-application-key']).toBe(applicationKey);

  await disconnectFromCard(page, 'philipshue');
  const gone = await request.get('/api/v1/services/philipshue/proxy/route/clip/v2/resource/light', { headers: { authorization: `Bearer ${token}` } });
  expect(gone.status()).toBe(404);
});

test('World of Warcraft: connected in the region picked on the card, used through the proxy, a token that expires asks for a reconnect, Desconectar', async ({
  page,
  request,
}) => {
  const battlenet = stand.battlenet!;
  const person = await seedSession('user');
  await signIn(page, person);
  await page.goto('/dashboard');
  const card = tile(page, 'wow');
  await expect(card.getByLabel('Región')).toHaveValue('us');
  await card.getByLabel('Región').selectOption('kr');
  await connectFromCard(page, 'wow');

  const token = await appTokenFor(request, person, 'wow');
  const profile = await request.get('/api/v1/services/wow/proxy/profile/user/wow', { headers: { authorization: `Bearer ${token}` } });
  expect(profile.status()).toBe(200);
  expect(await profile.json()).toMatchObject({ region: 'kr' });
  expect(battlenet.apiCalls.at(-1)).toMatchObject({ path: '/kr/profile/user/wow', query: { namespace: 'profile-kr' }, scheme: 'Bearer' });

  // A day later the token has expired and Battle.net gives no refresh token: the card and apps say to reconnect.
  battlenet.expireAccessTokens();
  await withDb((db) =>
    db.query(
      `update service_connections set expires_at = now() - interval '1 minute'
        where user_id = $1 and service_id = (select id from external_services where service_name = 'wow')`,
      [person.user.id],
    ),
  );
  const refused = await request.get('/api/v1/services/wow/proxy/profile/user/wow', { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: string }).error).toBe('needs_reconnect');
  await page.reload();
  await expect(card).toHaveAttribute('data-connected', 'false');
  await expect(card.getByTestId('service-status')).toHaveText('Hay que reconectar');
  await expect(page.getByTestId('services-broken')).toContainText('World of Warcraft: pulsa Reconectar en su tarjeta.');
  await expect(card.getByLabel('Región')).toHaveValue('kr');

  // Reconectar (this time in Europe) heals it.
  await card.getByLabel('Región').selectOption('eu');
  await connectFromCard(page, 'wow', 'Reconectar');
  await expect(page.getByTestId('services-broken')).toHaveCount(0);
  const again = await request.get('/api/v1/services/wow/proxy/profile/user/wow', { headers: { authorization: `Bearer ${token}` } });
  expect(again.status()).toBe(200);
  expect(battlenet.apiCalls.at(-1)).toMatchObject({ path: '/eu/profile/user/wow', query: { namespace: 'profile-eu' } });

  await disconnectFromCard(page, 'wow');
  // No revocation endpoint at Battle.net: the page says where to finish.
  await expect(page.getByTestId('finish-at').getByRole('link')).toHaveAttribute('href', stand.rows.wow!.account_url);
});

test.describe('screenshots', () => {
  for (const language of ['es', 'en'] as const) {
    for (const width of [1280, 360]) {
      test(`${language} ${width} px: the broken-connection notice and the World of Warcraft card with its region`, async ({ browser }) => {
        mkdirSync(SHOTS, { recursive: true });
        const context = await browser.newContext({ locale: language === 'es' ? 'es-ES' : 'en-GB', viewport: { width, height: 900 } });
        const page = await context.newPage();
        await useLanguage(page, language);
        const person = await seedSession('user');
        await signIn(page, person);
        await page.goto('/dashboard');
        await tile(page, 'wow').getByTestId('service-connect').click();
        await page.getByTestId('standin-authorize').click();
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(tile(page, 'wow')).toHaveAttribute('data-connected', 'true');
        await withDb((db) =>
          db.query(
            `update service_connections set expires_at = now() - interval '1 minute'
              where user_id = $1 and service_id = (select id from external_services where service_name = 'wow')`,
            [person.user.id],
          ),
        );
        await page.reload();
        const card = tile(page, 'wow');
        await expect(card).toHaveAttribute('data-connected', 'false');
        await expect(page.getByTestId('services-broken')).toBeVisible();
        await animationsSettled(page);
        await page.getByTestId('services-broken').scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SHOTS, `notice-${language}-${width}.png`) });
        await card.scrollIntoViewIfNeeded();
        await animationsSettled(page);
        await card.screenshot({ path: path.join(SHOTS, `wow-card-${language}-${width}.png`) });
        await page.screenshot({ path: path.join(SHOTS, `wow-dashboard-${language}-${width}.png`) });
        // Nothing on the card spills out of it.
        const overflow = await card.evaluate((element) => element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1);
        expect(overflow).toBe(false);
        await context.close();
      });
    }
  }
});
