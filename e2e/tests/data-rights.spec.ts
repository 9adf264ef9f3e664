import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { familyPresets, startServiceStandIn, type ServiceStandIn } from '@life/test-support/standins/services';
import { seedSession, signIn, takeLock, withDb } from '../support/db.js';
import { configureProviders, invite } from '../support/login.js';

/**
 * 'Descargar mis datos' and 'Eliminar mi cuenta' on the profile (docs/data-rights.md), in
 * Chromium against the real app and its workers. The Philips Hue catalog row (no other spec uses
 * it) points at a stand-in started here, so its revocations can be read from this process.
 */

const SERVICE = 'philipshue';
/** Set to a directory to save screenshots of the profile's section and the erase dialog (1280 and 360 px). */
const SHOTS = process.env.RIGHTS_SHOTS_DIR;

let hue: ServiceStandIn;
let adminToken: string;

async function pointCatalogAtStandIn(request: APIRequestContext): Promise<void> {
  const headers = { authorization: `Bearer ${adminToken}` };
  const catalog = (await (await request.get('/api/external-services/all', { headers })).json()) as { id: string; service_name: string }[];
  const row = catalog.find((service) => service.service_name === SERVICE)!;
  const response = await request.put(`/api/external-services/${row.id}`, {
    headers,
    data: {
      ...row,
      status: 'active',
      app_id: hue.clientId,
      app_secret: hue.clientSecret,
      auth_url: hue.authorizeUrl,
      token_url: hue.tokenUrl,
      base_url: hue.url,
      user_url: hue.userUrl,
      token_auth: 'basic',
      token_body: 'form',
      send_scope: true,
      pkce: true,
      extra_headers: {},
      api_key_header: null,
      api_key: '',
      revoke_url: hue.revokeUrl,
      revoke_style: 'rfc7009',
      account_url: `${hue.url}/account/connections`,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

let releaseRow: (() => Promise<void>) | undefined;

test.beforeAll(async ({ request }) => {
  // services-hue-wow.spec points the same row at its own stand-in: one spec at a time.
  releaseRow = await takeLock('catalog:philipshue');
  // Fitbit's family of quirks (Basic auth, rotating refresh tokens, RFC 7009 revocation) as "Hue",
  // with Hue's remote bridge (the link after the grant, decision 0041).
  hue = await startServiceStandIn({
    ...familyPresets().rotating,
    apiRoutes: familyPresets().hue.apiRoutes,
    name: 'Hue',
    clientId: `hue-client-${randomBytes(4).toString('hex')}`,
    clientSecret: `hue-secret-${randomBytes(12).toString('hex')}`,
    account: { id: 'HUE-1', name: 'Hue Home' },
  });
  adminToken = await configureProviders(request);
  await pointCatalogAtStandIn(request);
});

test.afterAll(async () => {
  await hue?.close();
  await releaseRow?.();
});

const tile = (page: Page) => page.locator(`[data-testid="service-tile"][data-service="${SERVICE}"]`);

/** Conectar on the dashboard → the stand-in's page → Authorize → back, connected. Returns the refresh token it issued. */
async function connectHue(page: Page): Promise<string> {
  await page.goto('/dashboard');
  await tile(page).getByRole('button', { name: 'Conectar', exact: true }).click();
  await page.getByTestId('standin-authorize').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(tile(page)).toHaveAttribute('data-connected', 'true');
  return hue.issued.refreshTokens.at(-1)!;
}

/** Signs in through the GitHub stand-in as `login` (GitHub's `login` parameter picks the account there). */
async function signInWithGithub(page: Page, login: string): Promise<{ id: string; username: string }> {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-provider-github').click();
  await page.waitForURL(/\/login\/oauth\/authorize\?/);
  await page.goto(`${page.url()}&login=${login}`);
  await expect(page.getByTestId('standin-account')).toHaveText(login);
  await page.getByTestId('standin-authorize').click();
  await expect(page.getByTestId('header-username')).toHaveText(login);
  return page.evaluate(() => JSON.parse(localStorage.getItem('user')!) as { id: string; username: string });
}

test('Descargar mis datos: the profile builds the export in the background and downloads a JSON with the person’s data and no secret', async ({ page }) => {
  const session = await seedSession('user');
  await signIn(page, session);
  const refreshToken = await connectHue(page);
  const ownSecret = `own-secret-${randomBytes(12).toString('hex')}`;
  const saved = await page.request.post('/api/external-services-user', {
    headers: { authorization: `Bearer ${session.token}` },
    data: { service_name: 'spotify', client_id: 'my-own-spotify-app', client_secret: ownSecret },
  });
  expect(saved.status()).toBe(200);

  if (SHOTS) {
    await page.goto('/dashboard');
    await shoot(page, 'dashboard-banner', page.getByTestId('privacy-banner'));
    await page.goto('/privacy-policy#que-guardamos');
    await shoot(page, 'privacy-policy', page.getByRole('heading', { name: 'Qué datos guardamos y por qué' }));
  }
  await page.goto('/profile');
  const section = page.getByTestId('data-rights');
  await expect(section.getByRole('heading', { name: 'Tus datos' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Descargar mis datos' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^life-datos-\d{4}-\d\d-\d\d\.json$/);
  await expect(section.getByTestId('data-export-ready')).toContainText('Tu archivo está listo');

  const text = readFileSync((await download.path())!, 'utf8');
  const file = JSON.parse(text) as {
    format: string;
    profile: { id: string; username: string; email: string };
    connections: { service: string; account_name: string | null }[];
    service_credentials: { service_name: string; client_id: string }[];
    activity: { action: string }[];
  };
  expect(file.format).toBe('life-data-export');
  expect(file.profile).toMatchObject({ id: session.user.id, username: session.user.username, email: session.user.email });
  expect(file.connections).toEqual([expect.objectContaining({ service: SERVICE, account_name: 'Hue Home' })]);
  expect(file.service_credentials).toEqual([expect.objectContaining({ service_name: 'spotify', client_id: 'my-own-spotify-app' })]);
  expect(file.activity.map((entry) => entry.action)).toContain('account.data_export_requested');
  for (const secret of [session.token, ownSecret, refreshToken, ...hue.issued.accessTokens, hue.clientSecret]) expect(text).not.toContain(secret);

  // Someone else cannot read it: the same 404 as an id that never existed.
  const exportId = await withDb(
    async (db) => (await db.query<{ id: string }>('select id from data_exports where user_id = $1', [session.user.id])).rows[0]!.id,
  );
  const other = await seedSession('user');
  for (const path of [`/api/users/me/export/${exportId}`, `/api/users/me/export/${exportId}/download`]) {
    const foreign = await page.request.get(path, { headers: { authorization: `Bearer ${other.token}` } });
    expect(foreign.status()).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: 'export_not_found' });
  }
});

test('Eliminar mi cuenta: typed confirmation, signed out at once, grant revoked at the provider, and a new sign-in starts afresh', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const login = `erin-${randomBytes(3).toString('hex')}`;
  const email = `${login}@example.com`;
  await invite(request, adminToken, email);
  const before = await signInWithGithub(page, login);
  const refreshToken = await connectHue(page);
  const revocationsBefore = hue.revocations.length;

  await page.goto('/profile');
  const section = page.getByTestId('data-rights');
  await expect(section).toBeVisible();
  if (SHOTS) await shoot(page, 'profile-section', section);
  await section.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  const dialog = page.getByTestId('erase-dialog');
  await expect(dialog.getByRole('heading', { name: '¿Eliminar tu cuenta para siempre?' })).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Eliminar definitivamente' });
  await dialog.getByTestId('erase-confirm-input').fill('borrar todo');
  await expect(confirm).toBeDisabled();
  // Wrong confirmations are refused by the server too, with a 4xx JSON error.
  const refused = await page.request.post('/api/users/me/erase', {
    headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('authToken'))}` },
    data: { confirm: 'borrar todo' },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ error: 'confirmation_mismatch' });
  await dialog.getByTestId('erase-confirm-input').fill(login);
  await expect(confirm).toBeEnabled();
  if (SHOTS) await shoot(page, 'erase-dialog', dialog);
  await confirm.click();

  // Signed out and home at once, which says so; the account goes in the background.
  await expect(page).toHaveURL(/\/\?notice=account_erased$/);
  await expect(page.getByTestId('account-erased-notice')).toContainText('Has cerrado sesión y tu cuenta se está eliminando.');
  await expect(page.getByTestId('login-button')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  await expect.poll(async () => withDb(async (db) => (await db.query('select 1 from users where id = $1', [before.id])).rowCount), { timeout: 20_000 }).toBe(0);
  expect(hue.revocations.slice(revocationsBefore)).toEqual([expect.objectContaining({ style: 'rfc7009', token: refreshToken, clientAuth: 'basic' })]);
  // The beta invitation (their e-mail) went with the account.
  expect((await withDb((db) => db.query('select 1 from beta_invites where email = $1', [email]))).rowCount).toBe(0);

  // Back through the same GitHub account: a new account, with nothing of the old one.
  await invite(request, adminToken, email);
  const after = await signInWithGithub(page, login);
  expect(after.id).not.toBe(before.id);
  await page.goto('/dashboard');
  await expect(tile(page)).toHaveAttribute('data-connected', 'false');
  await page.goto('/profile');
  await expect(page.getByTestId('profile-username')).toHaveValue(login);
  await expect(page.getByTestId('app-grants-empty')).toBeVisible();
  const counts = await withDb(async (db) => (await db.query('select count(*)::int as n from service_connections where user_id = $1', [after.id])).rows[0]);
  expect(counts).toEqual({ n: 0 });
});

async function shoot(page: Page, name: string, target: ReturnType<Page['getByTestId']>): Promise<void> {
  mkdirSync(SHOTS!, { recursive: true });
  const size = page.viewportSize();
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: name === 'profile-section' });
  }
  if (size) await page.setViewportSize(size);
}
