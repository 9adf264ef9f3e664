import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { animationsSettled, expectAccessible, useLanguage, type UiLanguage } from '../support/a11y.js';
import { seedSession, signIn, type SeededSession } from '../support/db.js';
import { APP_URL, appMe, arrivalAt, authorizationRequest, discover, exchangeCode, startCallbackServer, type CallbackServer } from '../support/oauth.js';

// Issue 18 point 12 (decision 0037): a person registers an app on their profile; an outside
// client (openid-client) sends people to the consent page, which says the app is not verified;
// an admin verifies it (the badge shows) and then suspends it (authorize refused, tokens dead).

/** Screenshots for a person to look at (es and en, 1280 and 360 px). */
const SHOTS = process.env.E2E_DEVAPPS_SHOTS_DIR ?? '/tmp/s7-shots/devapps';
const LOGO_URL = 'https://logo.example/agenda.svg';
/** The app's logo, served for its https URL by the browser's request routing (no network). */
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#0f766e"/><text x="20" y="27" font-size="20" font-family="sans-serif" font-weight="700" fill="#fff" text-anchor="middle">A</text></svg>';

let callback: CallbackServer;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  callback = await startCallbackServer();
});

test.afterAll(async () => {
  await callback?.close();
});

async function newPage(browser: Browser, who: SeededSession | null, options: { width?: number; language?: UiLanguage } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, locale: options.language === 'en' ? 'en-US' : 'es-ES' });
  const page = await context.newPage();
  if (who) await signIn(page, who);
  if (options.language) await useLanguage(page, options.language);
  await page.route(`${LOGO_URL}*`, (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO }));
  return page;
}

/** The developer fills 'Nueva aplicación' on the profile; answers the client id and the secret shown once. */
async function createOnProfile(page: Page, name: string): Promise<{ clientId: string; secret: string }> {
  await page.goto('/profile');
  const section = page.getByTestId('developer-apps');
  await expect(section.getByRole('heading', { name: 'Mis aplicaciones' })).toBeVisible();
  await section.getByRole('button', { name: 'Nueva aplicación' }).click();
  const dialog = page.getByTestId('developer-app-dialog');
  await expect(dialog.getByRole('heading', { name: 'Nueva aplicación' })).toBeVisible();
  // A plain-http logo is refused beside its field; nothing is created.
  await dialog.getByLabel('Nombre', { exact: true }).fill(name);
  await dialog.getByLabel('URIs de redirección', { exact: true }).fill(callback.redirectUri);
  await dialog.getByLabel('URL del logo (opcional)').fill('http://logo.example/agenda.svg');
  await dialog.getByRole('button', { name: 'Crear aplicación' }).click();
  await expect(dialog.getByTestId('developer-app-field-error')).toHaveText('Debe ser una URL https.');
  await expect(dialog.getByLabel('URL del logo (opcional)')).toHaveAttribute('aria-invalid', 'true');
  await animationsSettled(page);
  await expectAccessible(page, 'es profile: new app dialog with a field error');

  await dialog.getByLabel('URL del logo (opcional)').fill(LOGO_URL);
  await dialog.getByLabel('Política de privacidad (opcional)').fill('https://agenda.example/privacidad');
  await dialog.getByLabel('Condiciones de uso (opcional)').fill('https://agenda.example/terminos');
  await dialog.getByRole('button', { name: 'Crear aplicación' }).click();
  await expect(dialog.getByRole('heading', { name: 'Aplicación creada' })).toBeVisible();
  const clientId = await dialog.getByTestId('developer-app-credentials-id').inputValue();
  const secret = await dialog.getByTestId('developer-app-credentials-secret').inputValue();
  expect(secret).toMatch(/^lcs_/);
  await expectAccessible(page, 'es profile: app created, secret shown once');
  await dialog.getByRole('button', { name: 'Hecho' }).click();
  await expect(dialog).toBeHidden();
  // Shown once: the list never has it again.
  await expect(section.getByTestId('developer-app')).toHaveCount(1);
  await expect(section.getByTestId('developer-app-unverified')).toHaveText('Sin verificar');
  expect(await page.content()).not.toContain(secret);
  return { clientId, secret };
}

/** The admin's 'Aplicaciones Conectadas', the app's edit dialog open. */
async function openInAdmin(page: Page, clientId: string) {
  await page.goto('/');
  await page.getByTestId('admin-gear').click();
  await page.getByTestId('admin-nav-aplicaciones').click();
  const section = page.getByTestId('admin-section-aplicaciones');
  const row = section.locator(`[data-testid="app-row"][data-client-id="${clientId}"]`);
  await expect(row).toBeVisible();
  return { section, row };
}

test('a person registers an app; consent says it is not verified; an admin verifies it, then suspends it', async ({ browser, request }) => {
  // Three people's browsers and axe on five screens.
  test.setTimeout(90_000);
  const developer = await seedSession('user');
  const person = await seedSession('user');
  const admin = await seedSession('admin');

  const devPage = await newPage(browser, developer);
  const { clientId, secret } = await createOnProfile(devPage, 'Agenda de Ana');
  await devPage.screenshot({ path: path.join(SHOTS, 'profile-my-apps-es-1280.png'), fullPage: true });

  // An outside app, built with openid-client, sends a person to the consent page.
  const config = await discover(clientId, client.ClientSecretBasic(secret));
  const consentPage = await newPage(browser, person);
  let authorization = await authorizationRequest(config, callback.redirectUri, 'openid profile email');
  await consentPage.goto(authorization.url.href);
  const card = consentPage.getByTestId('consent-request');
  await expect(card.getByTestId('consent-request-text')).toHaveText('La aplicación Agenda de Ana solicita permiso para:');
  const warning = card.getByTestId('consent-unverified');
  await expect(warning).toContainText('Aplicación no verificada');
  await expect(warning).toContainText('Permite el acceso solo si confías en Agenda de Ana.');
  await expect(card.getByTestId('consent-verified')).toHaveCount(0);
  await expect(card.getByTestId('consent-logo')).toHaveAttribute('referrerpolicy', 'no-referrer');
  expect(await card.getByTestId('consent-logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(card.getByRole('link', { name: /Política de privacidad de la aplicación/ })).toHaveAttribute('href', 'https://agenda.example/privacidad');
  await expectAccessible(consentPage, 'es consent: unverified person-made app');
  await consentPage.screenshot({ path: path.join(SHOTS, 'consent-unverified-es-1280.png'), fullPage: true });

  // The admin sees who made it and that it is unverified, and verifies it.
  const adminPage = await newPage(browser, admin);
  const { row } = await openInAdmin(adminPage, clientId);
  await expect(row.getByTestId('app-owner')).toHaveText(`Creada por ${developer.user.username}`);
  await expect(row.getByTestId('app-unverified')).toHaveText('Sin verificar');
  await animationsSettled(adminPage);
  await expectAccessible(adminPage, 'es admin: apps list with makers and review');
  await adminPage.screenshot({ path: path.join(SHOTS, 'admin-apps-list-es-1280.png') });
  await row.getByRole('button', { name: 'Editar Agenda de Ana' }).click();
  const dialog = adminPage.getByTestId('app-dialog');
  await dialog.getByTestId('app-verify').click();
  await expect(dialog.getByTestId('app-unverify')).toBeVisible();
  await animationsSettled(adminPage);
  await expectAccessible(adminPage, 'es admin: app dialog with Life’s review');
  await adminPage.screenshot({ path: path.join(SHOTS, 'admin-app-review-es-1280.png') });

  // The badge shows; the person allows; the app gets working tokens.
  authorization = await authorizationRequest(config, callback.redirectUri, 'openid profile email');
  await consentPage.goto(authorization.url.href);
  await expect(card.getByTestId('consent-verified')).toHaveText('Verificada por Life');
  await expect(card.getByTestId('consent-unverified')).toHaveCount(0);
  await expectAccessible(consentPage, 'es consent: verified app');
  await consentPage.screenshot({ path: path.join(SHOTS, 'consent-verified-es-1280.png'), fullPage: true });
  await card.getByRole('button', { name: 'Permitir' }).click();
  const back = await arrivalAt(consentPage, callback.redirectUri);
  const tokens = await exchangeCode(config, back, authorization);
  expect(tokens.claims()).toMatchObject({ sub: person.user.id, aud: clientId, iss: APP_URL });
  expect((await appMe(request, tokens.access_token)).status()).toBe(200);

  // The admin suspends it (after a confirmation): refused at authorize, its live token stops working.
  adminPage.once('dialog', (question) => void question.accept());
  await dialog.getByTestId('app-suspend').click();
  await expect(dialog.getByTestId('app-unsuspend')).toBeVisible();
  await expect(async () => expect((await appMe(request, tokens.access_token)).status()).toBe(401)).toPass();
  authorization = await authorizationRequest(config, callback.redirectUri, 'openid');
  await consentPage.goto(authorization.url.href);
  await expect(consentPage.getByTestId('consent-error-message')).toBeVisible();
  await expect(consentPage.getByTestId('consent-request')).toHaveCount(0);
  await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();

  // The owner sees 'Suspendida' and has nothing to lift it with.
  await devPage.goto('/profile');
  const mine = devPage.getByTestId('developer-app');
  await expect(mine.getByTestId('developer-app-suspended')).toHaveText('Suspendida');
  await expect(mine.getByTestId('developer-app-suspended-note')).toContainText('Life ha suspendido esta aplicación');
  await expectAccessible(devPage, 'es profile: suspended app');
  await devPage.screenshot({ path: path.join(SHOTS, 'profile-suspended-es-1280.png'), fullPage: true });
  for (const page of [devPage, consentPage, adminPage]) await page.context().close();
});

test('screenshots in es and en at 1280 and 360 px, with no sideways scrolling, and axe on each', async ({ browser, request }) => {
  // Eight pages, each measured, checked by axe and photographed.
  test.setTimeout(180_000);
  for (const language of ['es', 'en'] as const) {
    const developer = await seedSession('user');
    // Two apps through the API, one with a long name, so the list and the dialogs have something to show.
    for (const name of ['Agenda', 'Agenda familiar con un nombre bastante largo para ver cómo se corta']) {
      const response = await request.post('/api/users/me/developer-apps', {
        headers: { authorization: `Bearer ${developer.token}` },
        data: { name, redirect_uris: [callback.redirectUri], logo_uri: LOGO_URL, policy_uri: 'https://agenda.example/privacidad' },
      });
      expect(response.status(), await response.text()).toBe(201);
    }
    const apps = (await (await request.get('/api/users/me/developer-apps', { headers: { authorization: `Bearer ${developer.token}` } })).json()) as {
      items: { client_id: string }[];
    };
    const person = await seedSession('user');
    for (const width of [1280, 360]) {
      const page = await newPage(browser, developer, { width, language });
      await page.goto('/profile');
      const section = page.getByTestId('developer-apps');
      await expect(section.getByTestId('developer-app')).toHaveCount(2);
      await section.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page, `${language} ${width} profile: my apps`);
      await section.screenshot({ path: path.join(SHOTS, `profile-my-apps-${language}-${width}.png`) });

      await section.getByTestId('developer-app-add').click();
      const dialog = page.getByTestId('developer-app-dialog');
      await expect(dialog).toBeVisible();
      await animationsSettled(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page, `${language} ${width} profile: new app dialog`);
      await page.screenshot({ path: path.join(SHOTS, `profile-new-app-${language}-${width}.png`) });
      await page.keyboard.press('Escape');
      await page.context().close();

      const consent = await newPage(browser, person, { width, language });
      const config = await discover(apps.items[1]!.client_id, client.None());
      await consent.goto((await authorizationRequest(config, callback.redirectUri, 'openid profile email')).url.href);
      await expect(consent.getByTestId('consent-unverified')).toBeVisible();
      expect(await consent.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(consent, `${language} ${width} consent: unverified`);
      await consent.screenshot({ path: path.join(SHOTS, `consent-unverified-${language}-${width}.png`), fullPage: true });
      await consent.context().close();
    }
  }
});
