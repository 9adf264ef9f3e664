import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { seedSession, signIn } from '../support/db.js';
import {
  SHOTS_DIR,
  appMe,
  arrivalAt,
  authorizationRequest,
  createApp,
  discover,
  exchangeCode,
  startCallbackServer,
  type CallbackServer,
} from '../support/oauth.js';

// Issue 5: the admin's 'Aplicaciones Conectadas' and the person's 'Aplicaciones con acceso'.

let callback: CallbackServer;

test.beforeAll(async () => {
  callback = await startCallbackServer();
});

test.afterAll(async () => {
  await callback?.close();
});

async function openAppsSection(page: Page) {
  await page.goto('/');
  await page.getByTestId('admin-gear').click();
  await page.getByTestId('admin-nav-aplicaciones').click();
  const section = page.getByTestId('admin-section-aplicaciones');
  await expect(section.getByRole('heading', { name: 'Aplicaciones Conectadas' })).toBeVisible();
  return section;
}

test('admin: Nueva aplicación shows the secret once, the row says Activa, Autorizar opens the consent page, inactive disables it', async ({
  page,
  request,
}) => {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const admin = await seedSession('admin');
  await signIn(page, admin);
  await page.setViewportSize({ width: 1280, height: 900 });
  const section = await openAppsSection(page);
  await expect(section.getByTestId('apps-table').locator('thead th')).toHaveText(['Nombre', 'Estado', 'Client ID', 'Descripción', 'Acciones']);

  const name = `Agenda Panel ${Date.now().toString(36)}`;
  const description = 'Sincroniza tu agenda de Life con el calendario de la oficina';
  await section.getByRole('button', { name: 'Nueva aplicación' }).click();
  const dialog = page.getByTestId('app-dialog');
  await expect(dialog.getByRole('heading', { name: 'Nueva aplicación' })).toBeVisible();
  await dialog.getByLabel('Nombre', { exact: true }).fill(name);
  await dialog.getByLabel('Descripción', { exact: true }).fill(description);
  await dialog.getByLabel('URIs de redirección', { exact: true }).fill(callback.redirectUri);
  await expect(dialog.getByLabel('Tipo', { exact: true })).toHaveValue('confidential');
  await expect(dialog.getByTestId('app-field-active')).toBeChecked();
  await dialog.getByRole('button', { name: 'Crear aplicación' }).click();

  // The secret, this once.
  await expect(dialog.getByRole('heading', { name: 'Aplicación creada' })).toBeVisible();
  await expect(dialog.getByTestId('client-credentials-warning')).toHaveText('Guarda el secreto ahora: no se volverá a mostrar.');
  const clientId = await dialog.getByTestId('client-credentials-id').inputValue();
  const secret = await dialog.getByTestId('client-credentials-secret').inputValue();
  expect(clientId).toMatch(/^life_/);
  expect(secret).toMatch(/^lcs_/);
  await dialog.getByRole('button', { name: 'Hecho' }).click();
  await expect(dialog).toBeHidden();

  const row = section.locator(`[data-testid="app-row"][data-client-id="${clientId}"]`);
  await expect(row).toHaveAttribute('data-active', 'true');
  // Each cell's first line is the spec's; below the name and Estado, who made the app and Life's review (decision 0037).
  await expect(row.locator('td').nth(0).locator('span').first()).toHaveText(name);
  await expect(row.getByTestId('app-owner')).toHaveText('De Life');
  await expect(row.locator('td').nth(1).locator('span').first()).toHaveText('Activa');
  await expect(row.getByTestId('app-verified')).toHaveText('Verificada');
  await expect(row.locator('td').nth(2)).toHaveText(`${clientId.slice(0, 24)}…`);
  await expect(row.locator('td').nth(3)).toHaveText(`${description.slice(0, 40).trimEnd()}…`);
  await expect(row.getByRole('button', { name: 'Autorizar' })).toBeEnabled();

  // Never shown again: not in the list, not in the edit dialog. And the one shown works.
  const listed = await request.get('/oauth_clients', { headers: { authorization: `Bearer ${admin.token}` } });
  expect(await listed.text()).not.toContain(secret);
  expect((await listed.json()) as unknown[]).toContainEqual(expect.objectContaining({ client_id: clientId, has_secret: true, active: true }));
  const config = await discover(clientId, client.ClientSecretBasic(secret));
  expect((await client.clientCredentialsGrant(config)).access_token).toMatch(/^lat_/);
  await row.getByRole('button', { name: `Editar ${name}` }).click();
  await expect(dialog.getByRole('heading', { name: 'Editar aplicación' })).toBeVisible();
  await expect(dialog.getByTestId('app-client-id')).toHaveValue(clientId);
  await expect(dialog.getByTestId('app-secret-section')).toContainText('El secreto no se puede volver a ver.');
  expect(await dialog.locator('input, textarea').evaluateAll((fields, s) => fields.some((f) => (f as HTMLInputElement).value === s), secret)).toBe(false);
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();

  await page.screenshot({ path: path.join(SHOTS_DIR, 'admin-apps-1280.png') });

  // Autorizar: the consent page for scope read, as a person would see it, in a dialog.
  await row.getByRole('button', { name: 'Autorizar' }).click();
  const authorize = page.getByTestId('authorize-dialog');
  await expect(authorize.getByRole('heading', { name: `Autorizar ${name}` })).toBeVisible();
  const frameSrc = new URL((await authorize.getByTestId('authorize-frame').getAttribute('src'))!, 'http://x');
  expect(frameSrc.pathname).toBe('/oauth/authorize');
  expect(Object.fromEntries(frameSrc.searchParams)).toEqual({
    client_id: clientId,
    redirect_uri: callback.redirectUri,
    scope: 'read',
    state: 'appconnect',
    prompt: 'consent',
  });
  const frame = page.frameLocator('[data-testid="authorize-frame"]');
  await expect(frame.getByRole('heading', { name: 'Solicitud de acceso' })).toBeVisible();
  await expect(frame.getByTestId('consent-request-text')).toHaveText(`La aplicación ${name} solicita permiso para:`);
  await expect(frame.getByTestId('consent-scopes').getByRole('listitem')).toHaveText(['Ver tu perfil básico y qué servicios tienes conectados']);
  await expect(frame.getByRole('button', { name: 'Permitir' })).toBeEnabled();
  await page.screenshot({ path: path.join(SHOTS_DIR, 'admin-apps-authorize-1280.png') });
  await authorize.getByRole('button', { name: 'Cerrar' }).click();
  await expect(authorize).toBeHidden();

  // Inactive: the row says so and Autorizar is off.
  await row.getByRole('button', { name: `Editar ${name}` }).click();
  await dialog.getByTestId('app-field-active').uncheck();
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveAttribute('data-active', 'false');
  await expect(row.locator('td').nth(1).locator('span').first()).toHaveText('Inactiva');
  await expect(row.getByRole('button', { name: 'Autorizar' })).toBeDisabled();
  await expect(row.getByRole('button', { name: 'Autorizar' })).toHaveAttribute('title', 'Activa la aplicación para poder autorizarla.');
  const info = await request.get(`/oauth/authorize?client_id=${clientId}&scope=read`, { headers: { accept: 'application/json' } });
  expect([info.status(), ((await info.json()) as { error: string }).error]).toEqual([400, 'invalid_client']);

  await page.setViewportSize({ width: 360, height: 800 });
  await expect(row).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS_DIR, 'admin-apps-360.png') });
  await section.screenshot({ path: path.join(SHOTS_DIR, 'admin-apps-section-360.png') });
});

test('profile: the app with access is listed, and Revocar ends its tokens at once', async ({ page, request }) => {
  const admin = await seedSession('admin');
  const app = await createApp(request, admin.token, { name: 'Agenda Revocable', client_type: 'public', redirect_uris: [callback.redirectUri] });
  const person = await seedSession('user');
  await signIn(page, person);
  const config = await discover(app.client_id, client.None());

  await page.goto('/profile');
  const grants = page.getByTestId('app-grants');
  await expect(grants.getByRole('heading', { name: 'Aplicaciones con acceso' })).toBeVisible();
  await expect(grants.getByTestId('app-grants-empty')).toHaveText('Ninguna aplicación tiene acceso a tu cuenta.');

  const authorization = await authorizationRequest(config, callback.redirectUri, 'openid profile');
  await page.goto(authorization.url.href);
  await page.getByRole('button', { name: 'Permitir' }).click();
  const tokens = await exchangeCode(config, await arrivalAt(page, callback.redirectUri), authorization);
  expect((await appMe(request, tokens.access_token)).status()).toBe(200);

  await page.goto('/profile');
  const item = grants.getByTestId('app-grant');
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('app-grant-name')).toHaveText('Agenda Revocable');
  await expect(item.getByTestId('app-grant-scopes').getByRole('listitem')).toHaveText(['Confirmar quién eres en Life', 'Ver tu nombre de usuario']);
  await expect(item.getByTestId('app-grant-date')).toContainText('Acceso concedido el');

  page.once('dialog', (dialog) => {
    expect([dialog.type(), dialog.message()]).toEqual(['confirm', '¿Revocar el acceso de Agenda Revocable? Tendrá que volver a pedirte permiso.']);
    void dialog.accept();
  });
  await item.getByRole('button', { name: 'Revocar el acceso de Agenda Revocable' }).click();
  await expect(grants.getByTestId('app-grants-empty')).toBeVisible();
  await expect(item).toHaveCount(0);

  const refused = await appMe(request, tokens.access_token);
  expect(refused.status()).toBe(401);
  expect(refused.headers()['www-authenticate']).toContain('invalid_token');
  await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  const apps = await request.get('/api/users/me/apps', { headers: { authorization: `Bearer ${person.token}` } });
  expect(await apps.json()).toEqual([]);

  // Nothing remembered any more: the app has to ask again.
  const again = await authorizationRequest(config, callback.redirectUri, 'openid profile');
  await page.goto(again.url.href);
  await expect(page.getByRole('button', { name: 'Permitir' })).toBeEnabled();
  await expect(page.getByTestId('consent-redirecting')).toHaveCount(0);
});
