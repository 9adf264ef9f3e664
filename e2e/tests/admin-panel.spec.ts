import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, useLanguage, type UiLanguage } from '../support/a11y.js';
import { seedSession, signIn, type SeededSession } from '../support/db.js';
import { createApp, startCallbackServer, type CallbackServer } from '../support/oauth.js';

// Issue 20, points 3, 5 and 8: the admin panel's Autorizar, the service editor, and the panel in the reader's language.

const SHOTS = process.env.E2E_ADMIN_SHOTS_DIR ?? '/tmp/s6-shots/admin';

let callback: CallbackServer;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  callback = await startCallbackServer();
});

test.afterAll(async () => {
  await callback?.close();
});

async function openSection(page: Page, section: string) {
  await page.getByTestId('admin-gear').click();
  await page.getByTestId(`admin-nav-${section}`).click();
  return page.getByTestId(`admin-section-${section}`);
}

async function grantsOf(page: Page, session: SeededSession): Promise<{ client_id: string }[]> {
  const response = await page.request.get('/api/users/me/apps', { headers: { authorization: `Bearer ${session.token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { client_id: string }[];
}

for (const language of ['es', 'en'] as const satisfies UiLanguage[]) {
  test(`${language}: Autorizar opened twice never approves by itself, never leaves the panel, and says what Permitir grants`, async ({ page }) => {
    const admin = await seedSession('admin');
    const app = await createApp(page.request, admin.token, { name: `Agenda ${language}`, redirect_uris: [callback.redirectUri] });
    await useLanguage(page, language);
    await signIn(page, admin);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    const panelUrl = page.url();
    const section = await openSection(page, 'aplicaciones');
    const row = section.locator(`[data-testid="app-row"][data-client-id="${app.client_id}"]`);
    const dialog = page.getByTestId('authorize-dialog');
    const frame = page.frameLocator('[data-testid="authorize-frame"]');
    const hitsBefore = callback.hits.length;
    const allowName = language === 'es' ? 'Permitir' : 'Allow';

    // First opening: the question and what it grants, nothing granted yet.
    await row.getByTestId('app-authorize').click();
    await expect(frame.getByTestId('consent-scopes').getByRole('listitem')).toHaveCount(1);
    await expect(frame.getByTestId('consent-framed-note')).toContainText(app.name);
    await expect(dialog).toContainText(language === 'es' ? 'Nada se concede hasta que pulses Permitir' : 'Nothing is granted until you press Allow');
    expect(await grantsOf(page, admin)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, `authorize-ask-${language}-1280.png`) });

    // Permitir: a real grant, said in the frame; the panel stays where it was and the app gets nothing.
    await frame.getByRole('button', { name: allowName }).click();
    await expect(frame.getByTestId('consent-outcome-title')).toHaveText(language === 'es' ? 'Acceso concedido' : 'Access granted');
    await expect(frame.getByTestId('consent-outcome-scopes').getByRole('listitem')).toHaveCount(1);
    await expect(frame.getByTestId('consent-outcome-redirect')).toContainText('127.0.0.1');
    expect((await grantsOf(page, admin)).map((grant) => grant.client_id)).toEqual([app.client_id]);
    expect(page.url()).toBe(panelUrl);
    expect(callback.hits.length).toBe(hitsBefore);
    await expectAccessible(page, `${language} admin: Autorizar outcome`);
    await page.screenshot({ path: path.join(SHOTS, `authorize-outcome-${language}-1280.png`) });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Second opening, with a grant that covers the request: still the question, no automatic yes.
    await row.getByTestId('app-authorize').click();
    await expect(frame.getByRole('button', { name: allowName })).toBeEnabled();
    await expect(frame.getByTestId('consent-redirecting')).toHaveCount(0);
    await expect(frame.getByTestId('consent-outcome')).toHaveCount(0);
    expect(page.url()).toBe(panelUrl);
    expect(callback.hits.length).toBe(hitsBefore);
    await expect(section).toBeVisible();

    await page.setViewportSize({ width: 360, height: 800 });
    await expect(frame.getByRole('button', { name: allowName })).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `authorize-ask-${language}-360.png`) });
  });
}

for (const language of ['es', 'en'] as const satisfies UiLanguage[]) {
  test(`${language}: the admin's pencil on a dashboard card opens an editor in words, refuses a bad key and asks before changing the catalog for everyone`, async ({
    page,
  }) => {
    const admin = await seedSession('admin');
    await useLanguage(page, language);
    await signIn(page, admin);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dashboard');
    const es = language === 'es';
    const card = page.locator('[data-testid="service-tile"][data-service="youtube"]');
    await card.getByTestId('service-edit').click();
    const dialog = page.getByTestId('service-dialog');
    const key = dialog.getByLabel(es ? 'Clave del servicio' : 'Service key', { exact: true });
    await expect(key).toHaveValue('youtube');
    await expect(dialog.getByLabel(es ? 'Client ID de la aplicación OAuth' : "OAuth application's client ID", { exact: true })).toBeVisible();
    await expect(dialog.getByLabel(es ? 'Tipo' : 'Type', { exact: true })).toHaveValue('vídeo');
    await expect(dialog.getByText('service_name', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: path.join(SHOTS, `service-editor-${language}-1280.png`) });

    // What a newcomer typed: a client id in the first field. The server refuses it, in the reader's language.
    await key.fill('My Client ID');
    await dialog.getByTestId('service-save').click();
    await expect(dialog.getByTestId('service-confirm-rename')).toContainText('My Client ID');
    await expectAccessible(page, `${language} admin: service change confirmation`);
    await page.screenshot({ path: path.join(SHOTS, `service-confirm-${language}-1280.png`) });
    const refused = page.waitForResponse((response) => response.request().method() === 'PUT');
    await dialog.getByTestId('service-confirm-save').click();
    expect((await refused).status()).toBe(400);
    await expect(dialog.getByTestId('service-save-error')).toContainText(es ? 'La clave: de 2 a 40 letras minúsculas' : 'The key: 2 to 40 lowercase letters');

    // Back to editing, then cancel: the catalog still says youtube for everyone.
    await dialog.getByTestId('service-confirm-back').click();
    await dialog.getByTestId('service-cancel').click();
    await expect(dialog).toBeHidden();
    const services = (await (await page.request.get('/api/external-services/all', { headers: { authorization: `Bearer ${admin.token}` } })).json()) as {
      service_name: string;
    }[];
    expect(services.map((service) => service.service_name)).toContain('youtube');

    await page.setViewportSize({ width: 360, height: 800 });
    await card.getByTestId('service-edit').click();
    await expect(key).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `service-editor-${language}-360.png`) });
    await dialog.getByLabel(es ? 'Descripción' : 'Description', { exact: true }).fill(es ? 'Vídeos, canales y listas.' : 'Videos, channels and playlists.');
    await dialog.getByTestId('service-save').click();
    await expect(dialog.getByTestId('service-confirm')).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `service-confirm-${language}-360.png`) });
    await dialog.getByTestId('service-confirm-back').click();
    await dialog.getByTestId('service-cancel').click();
  });
}

test("the header's name follows a rename in another tab of the browser, and one made elsewhere once the window is back in focus", async ({
  page,
  context,
  browser,
}) => {
  const person = await seedSession('user');
  await signIn(page, person);
  await page.goto('/dashboard');
  await expect(page.getByTestId('header-username')).toHaveText(person.user.username);

  // Another tab of the same browser renames the person on its profile page.
  const other = await context.newPage();
  await other.goto('/profile');
  const renamed = `${person.user.username}-tab`;
  await other.getByTestId('profile-username').fill(renamed);
  await other.getByTestId('profile-save').click();
  await expect(other.getByTestId('profile-success')).toBeVisible();
  await expect(page.getByTestId('header-username')).toHaveText(renamed);
  await other.close();

  // Elsewhere (another browser, a phone): only the server knows; coming back to the window asks it.
  const elsewhere = `${person.user.username}-phone`;
  const phone = await browser.newContext();
  try {
    const response = await phone.request.patch(new URL('/api/users/me', page.url()).href, {
      headers: { authorization: `Bearer ${person.token}` },
      data: { username: elsewhere },
    });
    expect(response.status()).toBe(200);
  } finally {
    await phone.close();
  }
  await expect(page.getByTestId('header-username')).toHaveText(renamed);
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(page.getByTestId('header-username')).toHaveText(elsewhere);
});

for (const language of ['es', 'en'] as const satisfies UiLanguage[]) {
  test(`${language}: the admin tables show Life's types and descriptions in the reader's language, and the audit log names its objects`, async ({ page }) => {
    const admin = await seedSession('admin');
    const app = await createApp(page.request, admin.token, { name: `Agenda Auditada ${language}`, redirect_uris: [callback.redirectUri] });
    await useLanguage(page, language);
    await signIn(page, admin);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    const es = language === 'es';

    // Servicios Conectados (the default section): the same words as the dashboard's cards.
    await page.getByTestId('admin-gear').click();
    const services = page.getByTestId('services-table');
    const notion = services.locator('[data-testid="service-row"][data-service="notion"]');
    await expect(notion.locator('td').nth(1)).toHaveText(es ? 'notas' : 'notes');
    await expect(notion.getByTestId('service-row-description')).toHaveAttribute(
      'title',
      es ? 'Las páginas y bases de datos de Notion que elijas compartir.' : 'The Notion pages and databases you choose to share.',
    );
    await page.screenshot({ path: path.join(SHOTS, `admin-services-${language}-1280.png`) });

    // The audit log: the app created above by its name, never its id.
    await page.getByTestId('admin-nav-salud').click();
    await page.getByTestId('system-health-tab-audit').click();
    const created = page.locator('[data-testid="audit-row"][data-action="admin.oauth_client_created"]').filter({ hasText: app.name });
    await expect(created.getByTestId('audit-target')).toHaveText(`${es ? 'Aplicación' : 'Application'}${app.name}`);
    await expect(created.getByTestId('audit-target')).toHaveAttribute('title', app.client_id);
    const targets = await page.getByTestId('audit-target').allTextContents();
    for (const text of targets) expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
    await page.screenshot({ path: path.join(SHOTS, `admin-audit-${language}-1280.png`) });

    await page.setViewportSize({ width: 360, height: 800 });
    await expect(created).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `admin-audit-${language}-360.png`) });
    await page.getByTestId('admin-nav-servicios').click();
    await expect(notion).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `admin-services-${language}-360.png`) });
  });
}
