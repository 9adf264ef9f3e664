import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { holdingLock, seedSession, signIn, withDb, type SeededSession } from '../support/db.js';
import { APP_URL, arrivalAt, authorizationRequest, createApp, discover, exchangeCode, startCallbackServer, type CallbackServer } from '../support/oauth.js';

// Issue 16 (part C): every catalog service, through the stand-in that speaks its provider's quirks
// (@life/test-support/standins/services, decision 0043). For each: Conectar on the dashboard → the
// stand-in's consent page → back connected; a third-party app calls the service's real API path
// through `/api/v1/services/{service}/proxy/…`; the stand-in then calls every token it issued
// expired (what an hour does) and the app's next call works, because the proxy refreshed in the
// provider's dialect and retried with the new token; Desconectar and the card is back to Conectar.
// Rows configured by scripts/run.mjs use its stand-ins; the others (spotify, googledrive,
// googlefit) use the app's development providers, the same stand-ins started by the app.
// Add a row to SERVICES to cover another service.

interface ServiceCase {
  service: string;
  /** The card's heading. */
  name: string;
  /** The API call an app makes, relative to the service's API base (query string included). */
  path: string;
  method?: 'POST';
  body?: unknown;
  /** What the provider's real answer to it contains. */
  answer: Record<string, unknown>;
  /** In maintenance in the catalog: made active for the duration of its test (see dev-providers.spec). */
  maintenance?: boolean;
}

const SERVICES: ServiceCase[] = [
  { service: 'spotify', name: 'Spotify', path: 'me', answer: { display_name: 'Sofía Spotify', type: 'user' } },
  { service: 'github', name: 'GitHub', path: 'user', answer: { login: 'octo-connector', type: 'User' } },
  { service: 'googlecalendar', name: 'Google Calendar', path: 'calendar/v3/users/me/calendarList', answer: { kind: 'calendar#calendarList' } },
  { service: 'googledrive', name: 'Google Drive', path: 'drive/v3/files?fields=files(id,name)', answer: { kind: 'drive#fileList' } },
  {
    service: 'googlefit',
    name: 'Google Fit',
    path: 'fitness/v1/users/me/dataset:aggregate',
    method: 'POST',
    body: {
      aggregateBy: [{ dataTypeName: 'com.google.step_count.delta' }],
      bucketByTime: { durationMillis: 86_400_000 },
      startTimeMillis: 1_764_028_800_000,
      endTimeMillis: 1_764_115_200_000,
    },
    answer: { bucket: [{ startTimeMillis: '1764028800000', endTimeMillis: '1764115200000' }] },
    maintenance: true,
  },
  { service: 'youtube', name: 'YouTube', path: 'youtube/v3/subscriptions?part=snippet&mine=true', answer: { kind: 'youtube#subscriptionListResponse' } },
  { service: 'notion', name: 'Notion', path: 'users/me', answer: { object: 'user', type: 'bot' } },
  { service: 'soundcloud', name: 'SoundCloud', path: 'me', answer: { kind: 'user', username: 'sam-soundcloud' } },
  { service: 'fitbit', name: 'Fitbit', path: '1/user/-/profile.json', answer: { user: { displayName: 'Fiona Fitbit' } } },
  { service: 'destiny2', name: 'Destiny 2', path: 'User/GetMembershipsForCurrentUser/', answer: { ErrorStatus: 'Success' } },
  { service: 'microsoft', name: 'Microsoft Cloud', path: 'me', answer: { displayName: 'Mara Microsoft' } },
];

type ServiceRows = Record<string, Record<string, unknown> & { service_name: string }>;
interface CatalogRow {
  id: string;
  service_name: string;
  [field: string]: unknown;
}

const tile = (page: Page, service: string) => page.locator(`[data-testid="service-tile"][data-service="${service}"]`);

let admin: SeededSession;
let person: SeededSession;
let callback: CallbackServer;
/** One signed-in page for the whole table: each test starts on the dashboard the previous one left. */
let context: BrowserContext;
let page: Page;
/** The third-party app's access token for `person`, carrying service:<every service above>. */
let appToken: string;

async function catalog(request: APIRequestContext): Promise<CatalogRow[]> {
  return (await (await request.get('/api/external-services/all', { headers: { authorization: `Bearer ${admin.token}` } })).json()) as CatalogRow[];
}

async function putRow(request: APIRequestContext, row: CatalogRow, changes: Record<string, unknown>): Promise<void> {
  const response = await request.put(`/api/external-services/${row.id}`, { headers: { authorization: `Bearer ${admin.token}` }, data: { ...row, ...changes } });
  expect(response.status(), `PUT ${row.service_name}: ${await response.text()}`).toBe(200);
}

/** The sealed tokens and refresh bookkeeping of the person's connection (ciphertexts: only compared). */
async function connectionOf(service: string) {
  return withDb(async (db) => {
    const { rows } = await db.query<{ access_token_encrypted: string; refresh_token_encrypted: string | null; last_refresh_at: Date | null; status: string }>(
      `select c.access_token_encrypted, c.refresh_token_encrypted, c.last_refresh_at, c.status
         from service_connections c join external_services s on s.id = c.service_id
        where c.user_id = $1 and s.service_name = $2`,
      [person.user.id, service],
    );
    return rows[0];
  });
}

function proxy(request: APIRequestContext, { service, path, method, body }: ServiceCase) {
  return request.fetch(`/api/v1/services/${service}/proxy/${path}`, {
    method: method ?? 'GET',
    headers: { authorization: `Bearer ${appToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, request }) => {
  admin = await seedSession('admin');
  person = await seedSession('user');
  callback = await startCallbackServer();

  // The rows scripts/run.mjs started stand-ins for point at them (as connections.spec does; same bodies).
  const { services } = JSON.parse(process.env.E2E_STANDINS ?? '{}') as { services?: ServiceRows };
  if (!services) throw new Error('E2E_STANDINS has no services: run the suite through `npm test -w e2e` (scripts/run.mjs).');
  for (const row of await catalog(request)) if (services[row.service_name]) await putRow(request, row, services[row.service_name]!);

  // A third-party app the person allows, once, every service above, on the real consent page.
  const scopes = SERVICES.map(({ service }) => `service:${service}`);
  const app = await createApp(request, admin.token, {
    name: 'Panel de servicios',
    redirect_uris: [callback.redirectUri],
    allowed_scopes: ['openid', ...scopes],
  });
  const config = await discover(app.client_id, client.ClientSecretPost(app.client_secret!));
  const authorization = await authorizationRequest(config, callback.redirectUri, ['openid', ...scopes].join(' '));
  context = await browser.newContext({ locale: 'es-ES' });
  page = await context.newPage();
  await signIn(page, person);
  await page.goto(authorization.url.href);
  await page.getByRole('button', { name: 'Permitir' }).click();
  const tokens = await exchangeCode(config, await arrivalAt(page, callback.redirectUri), authorization);
  appToken = tokens.access_token;
  await page.goto('/dashboard');
});

test.afterAll(async () => {
  await context?.close();
  await callback?.close();
});

for (const entry of SERVICES) {
  test(`${entry.service}: connect on the dashboard, call through the proxy, the provider expires the token and the next call refreshes, disconnect`, async ({
    request,
  }) => {
    // The machine is shared: a generous limit for the ~10 round trips of one service.
    test.setTimeout(60_000);
    const run = async () => {
      // A status change since the dashboard loaded (googlefit) shows after a reload.
      if (entry.maintenance || !page.url().endsWith('/dashboard')) await page.goto('/dashboard');
      const card = tile(page, entry.service);
      await expect(card.getByRole('heading')).toHaveText(entry.name);
      await expect(card).toHaveAttribute('data-connected', 'false');
      await card.getByRole('button', { name: 'Conectar', exact: true }).click();

      // The stand-in's own consent page, on its own origin, labelled as a stand-in.
      await expect(page.getByTestId('standin-banner')).toBeVisible();
      const standIn = new URL(page.url()).origin;
      expect(standIn).not.toBe(APP_URL);
      await page.getByTestId('standin-authorize').click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(card).toHaveAttribute('data-connected', 'true');
      await expect(card.getByTestId('service-status')).toHaveText('Conectado');

      // The app calls the service's API through the proxy, never seeing the provider's token.
      const first = await proxy(request, entry);
      expect(first.status(), await first.text()).toBe(200);
      expect(first.headers()['x-life-proxied-service']).toBe(entry.service);
      expect(await first.json()).toMatchObject(entry.answer);
      const before = await connectionOf(entry.service);
      expect(before).toMatchObject({ status: 'connected' });
      expect(before!.refresh_token_encrypted).not.toBeNull();

      // The provider now calls every token it issued expired; our records still say it is good.
      const expired = await request.post(`${standIn}/__standin/expire-access-tokens`);
      expect(((await expired.json()) as { expired: number }).expired).toBeGreaterThan(0);
      const second = await proxy(request, entry);
      expect(second.status(), await second.text()).toBe(200);
      expect(await second.json()).toMatchObject(entry.answer);
      const after = await connectionOf(entry.service);
      expect(after).toMatchObject({ status: 'connected' });
      expect(after!.last_refresh_at!.getTime()).toBeGreaterThan(before!.last_refresh_at?.getTime() ?? 0);
      expect(after!.access_token_encrypted).not.toBe(before!.access_token_encrypted);

      page.once('dialog', (dialog) => {
        expect(dialog.message()).toBe(`¿Desconectar ${entry.name}? Borraremos tus tokens de este servicio.`);
        void dialog.accept();
      });
      await card.getByRole('button', { name: 'Desconectar', exact: true }).click();
      await expect(card).toHaveAttribute('data-connected', 'false');
      await expect(card.getByTestId('service-status')).toHaveText('Desconectado');
      await expect(card.getByRole('button', { name: 'Conectar', exact: true })).toBeVisible();
      expect(await connectionOf(entry.service)).toBeUndefined();
      // Disconnected: the app's proxy call says so instead of reaching the provider.
      expect((await proxy(request, entry)).status()).toBe(404);
    };

    if (!entry.maintenance) return run();
    // A service in maintenance is made active only while its test runs (others read it in maintenance under the same lock).
    await holdingLock('catalog:googlefit', async () => {
      const row = (await catalog(request)).find((r) => r.service_name === entry.service)!;
      expect(row.status).toBe('maintenance');
      await putRow(request, row, { status: 'active' });
      try {
        await run();
      } finally {
        await putRow(
          request,
          (await catalog(request)).find((r) => r.service_name === entry.service)!,
          { status: 'maintenance' },
        );
      }
    });
  });
}
