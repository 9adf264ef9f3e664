import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { seedSession, signIn } from '../support/db.js';

/** Bodies of PUT /api/external-services/:id pointing catalog rows at the service stand-ins (scripts/run.mjs). */
type ServiceRows = Record<string, Record<string, unknown> & { service_name: string }>;

interface CatalogRow {
  id: string;
  service_name: string;
  [field: string]: unknown;
}

/** One service per family of provider quirks (@life/test-support/standins/services), with the name people see. */
const SERVICES = [
  { family: 'github', service: 'github', name: 'GitHub' },
  { family: 'google', service: 'googlecalendar', name: 'Google Calendar' },
  { family: 'rotating', service: 'fitbit', name: 'Fitbit' },
  { family: 'soundcloud', service: 'soundcloud', name: 'SoundCloud' },
  { family: 'notion', service: 'notion', name: 'Notion' },
  { family: 'bungie', service: 'destiny2', name: 'Destiny 2' },
  { family: 'battlenet', service: 'wow', name: 'World of Warcraft' },
  { family: 'microsoft', service: 'microsoft', name: 'Microsoft Cloud' },
] as const;

function serviceRows(): ServiceRows {
  const { services } = JSON.parse(process.env.E2E_STANDINS ?? '{}') as { services?: ServiceRows };
  if (!services) throw new Error('E2E_STANDINS has no services: run the suite through `npm test -w e2e` (scripts/run.mjs).');
  return services;
}

/** Points the catalog rows at the stand-ins through the real admin API (the full row with the stand-in's fields). */
async function configureServices(request: APIRequestContext): Promise<void> {
  const rows = serviceRows();
  const admin = await seedSession('admin');
  const headers = { authorization: `Bearer ${admin.token}` };
  const catalog = (await (await request.get('/api/external-services/all', { headers })).json()) as CatalogRow[];
  for (const row of catalog) {
    const body = rows[row.service_name];
    if (!body) continue;
    const response = await request.put(`/api/external-services/${row.id}`, { headers, data: { ...row, ...body } });
    expect(response.status(), `PUT ${row.service_name}: ${await response.text()}`).toBe(200);
  }
}

const tile = (page: Page, service: string) => page.locator(`[data-testid="service-tile"][data-service="${service}"]`);

test.beforeAll(async ({ request }) => {
  await configureServices(request);
});

test.describe('connecting services from the dashboard', () => {
  for (const { family, service, name } of SERVICES) {
    test(`${service} (${family}): Conectar → provider → Authorize → Conectado, then Desconectar → Desconectado`, async ({ page }) => {
      await signIn(page, await seedSession('user'));
      await page.goto('/dashboard');
      const card = tile(page, service);
      await expect(card.getByRole('heading')).toHaveText(name);
      await expect(card).toHaveAttribute('data-connected', 'false');
      await expect(card.getByTestId('service-status')).toHaveText('Desconectado');

      await card.getByRole('button', { name: 'Conectar', exact: true }).click();
      // The stand-in's consent page, on its own origin.
      await page.getByTestId('standin-authorize').click();

      // Back through /callback/{service}, which finishes the connection once and goes to the dashboard.
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(card).toHaveAttribute('data-connected', 'true');
      await expect(card.getByTestId('service-status')).toHaveText('Conectado');
      await expect(card.getByRole('button', { name: 'Conectar', exact: true })).toHaveCount(0);

      page.once('dialog', (dialog) => {
        expect(dialog.message()).toBe(`¿Desconectar ${name}? Borraremos tus tokens de este servicio.`);
        void dialog.accept();
      });
      await card.getByRole('button', { name: 'Desconectar', exact: true }).click();
      await expect(card).toHaveAttribute('data-connected', 'false');
      await expect(card.getByTestId('service-status')).toHaveText('Desconectado');
      await expect(card.getByRole('button', { name: 'Conectar', exact: true })).toBeVisible();
    });
  }

  test('a provider without a revocation endpoint (wow): Desconectar says where to finish', async ({ page }) => {
    await signIn(page, await seedSession('user'));
    await page.goto('/dashboard');
    const card = tile(page, 'wow');
    await card.getByRole('button', { name: 'Conectar', exact: true }).click();
    await page.getByTestId('standin-authorize').click();
    await expect(card).toHaveAttribute('data-connected', 'true');

    page.once('dialog', (dialog) => void dialog.accept());
    await card.getByRole('button', { name: 'Desconectar', exact: true }).click();
    const finish = page.getByTestId('finish-at');
    await expect(finish).toContainText('Para terminar, retira el acceso de Life en');
    await expect(finish.getByRole('link')).toHaveAttribute('href', String(serviceRows().wow!.account_url));
  });
});

test.describe('dashboard', () => {
  test('shows the privacy promise, 210 × 340 cards and filters by name', async ({ page }) => {
    await signIn(page, await seedSession('user'));
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('privacy-banner')).toContainText('No compartimos nada con nadie y no almacenamos más que lo imprescindible');
    await expect(page.getByRole('heading', { level: 2, name: 'Servicios disponibles' })).toBeVisible();
    const box = await tile(page, 'github').boundingBox();
    expect(box && { width: box.width, height: box.height }).toEqual({ width: 210, height: 340 });
    // Login-type services are not connected from here.
    await expect(tile(page, 'githublogin').getByRole('button', { name: 'Conectar', exact: true })).toHaveCount(0);

    await page.getByPlaceholder('Buscar servicio').fill('GOOGLE');
    const names = await page.getByTestId('service-tile').evaluateAll((tiles) => tiles.map((element) => (element as HTMLElement).dataset.service));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toContain('google');
    // The name people read finds the service as well as its key does.
    const found = () => page.getByTestId('service-tile').evaluateAll((tiles) => tiles.map((element) => (element as HTMLElement).dataset.service));
    await page.getByPlaceholder('Buscar servicio').fill('Google Calendar');
    expect(await found()).toEqual(['googlecalendar']);
    await page.getByPlaceholder('Buscar servicio').fill('googlecalendar');
    expect(await found()).toEqual(['googlecalendar']);
    await page.getByPlaceholder('Buscar servicio').fill('Microsoft Cloud');
    expect(await found()).toEqual(['microsoft']);
  });

  test('a user edits their own credentials for a service', async ({ page }) => {
    await signIn(page, await seedSession('user'));
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Editar YouTube' }).click();
    const dialog = page.getByTestId('credentials-dialog');
    await expect(dialog.getByRole('heading', { name: 'Editar credenciales - YouTube' })).toBeVisible();
    // No stored credentials yet (404): empty fields, enabled once loaded.
    await expect(dialog.getByTestId('credentials-client-id')).toBeEnabled();
    await expect(dialog.getByTestId('credentials-client-id')).toHaveValue('');
    await dialog.getByTestId('credentials-client-id').fill('my-own-client');
    await dialog.getByTestId('credentials-client-secret').fill('my-own-secret');
    await dialog.getByTestId('credentials-save').click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Editar YouTube' }).click();
    await expect(dialog.getByTestId('credentials-client-id')).toHaveValue('my-own-client');
    await expect(dialog.getByTestId('credentials-client-secret')).toHaveValue('********');
    await dialog.getByTestId('credentials-cancel').click();
    await expect(dialog).toBeHidden();
  });

  test('the callback page without a code processes nothing and goes home', async ({ page }) => {
    await signIn(page, await seedSession('user'));
    await page.goto('/callback/github?state=whatever');
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('admin: Servicios Conectados', () => {
  test('is the default section; the edit dialog saves the full row through PUT', async ({ page }) => {
    await signIn(page, await seedSession('admin'));
    await page.goto('/');
    await page.getByTestId('admin-gear').click();
    const table = page.getByTestId('services-table');
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader')).toHaveText(['Servicio', 'Tipo', 'Estado', 'Descripción', 'Acciones']);

    const row = table.locator('[data-testid="service-row"][data-service="spotify"]');
    await row.getByRole('button', { name: 'Editar Spotify' }).click();
    const dialog = page.getByTestId('service-dialog');
    await expect(dialog.getByTestId('service-field-service_name')).toHaveValue('spotify');
    const description = `Tu música y tus podcasts (${Date.now()}).`;
    await dialog.getByTestId('service-field-description').fill(description);
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().includes('/api/external-services/'));
    await dialog.getByTestId('service-save').click();
    // The catalog is everyone's: Guardar asks first (decision 0026).
    await expect(dialog.getByTestId('service-confirm-warning')).toBeVisible();
    await dialog.getByTestId('service-confirm-save').click();
    expect((await saved).status()).toBe(200);
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('service-row-description')).toHaveAttribute('title', description);

    // A server refusal is shown in the dialog.
    await row.getByRole('button', { name: 'Editar Spotify' }).click();
    await dialog.getByTestId('service-field-service_name').fill('github');
    await dialog.getByTestId('service-save').click();
    await dialog.getByTestId('service-confirm-save').click();
    await expect(dialog.getByTestId('service-save-error')).toContainText('No se pudo guardar. Ya existe un servicio llamado github.');
  });
});
