import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { animationsSettled, useLanguage, type UiLanguage } from '../support/a11y.js';
import { startNewcomerApp, type NewcomerApp } from '../support/newcomer.js';

// Issue 20, "Done when": a newcomer's first hour on a fresh install, as `npm start` runs it
// (development, no provider, service or Stripe credentials, no QUEUE_PREFIX; only ADMIN_EMAILS):
// sign in as the admin through the development identity provider, connect three services
// through their development providers, buy an edition through the development Stripe, open
// Autorizar twice, download the data and erase the account. In es and en, at 1280 and 360 px,
// with a screenshot of every step in SHOTS for a person to look at.

const SHOTS = process.env.E2E_FIRST_HOUR_SHOTS_DIR ?? '/tmp/s6-shots/first-hour';
const WALKS = [
  { language: 'es', width: 1280 },
  { language: 'es', width: 360 },
  { language: 'en', width: 1280 },
  { language: 'en', width: 360 },
] as const satisfies readonly { language: UiLanguage; width: number }[];
const adminEmail = (walk: (typeof WALKS)[number]) => `admin.${walk.language}.${walk.width}@first-hour.example`;

/** The words each step looks for, in the language of the walk. */
const WORDS = {
  es: {
    connect: 'Conectar',
    connected: 'Conectado',
    allow: 'Permitir',
    download: 'Descargar mis datos',
    erase: 'Eliminar mi cuenta',
    createApp: 'Nueva aplicación',
    appName: 'Nombre',
    redirectUris: 'URIs de redirección',
    create: 'Crear aplicación',
    done: 'Hecho',
  },
  en: {
    connect: 'Connect',
    connected: 'Connected',
    allow: 'Allow',
    download: 'Download my data',
    erase: 'Delete my account',
    createApp: 'New application',
    appName: 'Name',
    redirectUris: 'Redirect URIs',
    create: 'Create application',
    done: 'Done',
  },
} as const;

const SERVICES = ['spotify', 'notion', 'microsoft'] as const;

let app: NewcomerApp;

test.describe.configure({ mode: 'serial', timeout: 240_000 });

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  app = await startNewcomerApp(WALKS.map(adminEmail));
});

test.afterAll(async () => {
  await app?.stop();
});

async function newPage(browser: Browser, walk: (typeof WALKS)[number]): Promise<Page> {
  const context = await browser.newContext({
    baseURL: app.baseURL,
    locale: walk.language === 'es' ? 'es-ES' : 'en-GB',
    viewport: { width: walk.width, height: walk.width === 360 ? 780 : 860 },
  });
  const page = await context.newPage();
  await useLanguage(page, walk.language);
  return page;
}

for (const walk of WALKS) {
  const words = WORDS[walk.language];
  const label = `${walk.language}-${walk.width}`;
  const shot = async (page: Page, step: string) => {
    await animationsSettled(page);
    await page.screenshot({ path: path.join(SHOTS, `${label}-${step}.png`), fullPage: walk.width === 360 ? false : true });
  };

  test(`${walk.language}, ${walk.width} px: sign in as the admin, connect three services, buy an edition, Autorizar twice, export and erase`, async ({
    browser,
  }) => {
    const page = await newPage(browser, walk);
    const email = adminEmail(walk);

    // 1. Sign in through the development identity provider with the ADMIN_EMAILS e-mail.
    await page.goto('/');
    await page.getByTestId('login-button').click();
    await page.getByTestId('login-provider-github').click();
    await page.locator('input[name="email"]').fill(email);
    await shot(page, '01-dev-identity-provider');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByTestId('header-username')).toBeVisible();
    await expect(page.getByTestId('admin-gear')).toBeVisible();

    // 2. Three services through their development providers.
    await page.goto('/dashboard');
    for (const service of SERVICES) {
      const card = page.locator(`[data-testid="service-tile"][data-service="${service}"]`);
      await expect(card.getByTestId('service-dev-provider')).toBeVisible();
      await card.getByRole('button', { name: words.connect, exact: true }).click();
      await expect(page.getByTestId('standin-banner')).toBeVisible();
      if (service === SERVICES[0]) await shot(page, '02-dev-service-provider');
      await page.getByTestId('standin-authorize').click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(card.getByTestId('service-status')).toHaveText(words.connected);
    }
    await shot(page, '03-dashboard-connected');

    // 3. An edition through the development Stripe, then the membership on the profile.
    await page.goto('/');
    const onSale = page.locator('[data-testid="edition-card"][data-on-sale="true"]');
    await onSale.getByTestId('edition-buy').click();
    await expect(page.getByTestId('stripe-standin-banner')).toBeVisible();
    await shot(page, '04-dev-stripe');
    await page.getByTestId('stripe-pay').click();
    await page.goto('/profile');
    await expect(page.getByTestId('membership')).toBeVisible({ timeout: 20_000 });
    await shot(page, '05-profile-membership');

    // 4. Autorizar twice from the admin panel: it asks each time and never leaves the panel.
    await page.goto('/');
    const panelUrl = page.url();
    await page.getByTestId('admin-gear').click();
    await page.getByTestId('admin-nav-aplicaciones').click();
    const section = page.getByTestId('admin-section-aplicaciones');
    await section.getByRole('button', { name: words.createApp }).click();
    const appDialog = page.getByTestId('app-dialog');
    const appName = `Agenda ${label}`;
    await appDialog.getByLabel(words.appName, { exact: true }).fill(appName);
    await appDialog.getByLabel(words.redirectUris, { exact: true }).fill('https://agenda.example/callback');
    await appDialog.getByRole('button', { name: words.create }).click();
    await expect(appDialog.getByTestId('client-credentials-secret')).not.toHaveValue('');
    await appDialog.getByRole('button', { name: words.done }).click();
    const row = section.locator('[data-testid="app-row"]', { hasText: appName });
    const frame = page.frameLocator('[data-testid="authorize-frame"]');
    for (const round of [1, 2]) {
      await row.getByTestId('app-authorize').click();
      await expect(frame.getByRole('button', { name: words.allow })).toBeEnabled();
      await expect(frame.getByTestId('consent-scopes').getByRole('listitem')).toHaveCount(1);
      await expect(frame.getByTestId('consent-outcome')).toHaveCount(0);
      expect(page.url()).toBe(panelUrl);
      await shot(page, `06-autorizar-${round}`);
      if (round === 1) {
        await frame.getByRole('button', { name: words.allow }).click();
        await expect(frame.getByTestId('consent-outcome-title')).toBeVisible();
        expect(page.url()).toBe(panelUrl);
      }
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('authorize-dialog')).toBeHidden();
    }

    // 5. Download the data, then erase the account; the landing says so.
    await page.goto('/profile');
    const rights = page.getByTestId('data-rights');
    await rights.getByRole('button', { name: words.download }).click();
    await expect(rights.getByTestId('data-export-ready')).toBeVisible({ timeout: 30_000 });
    await shot(page, '07-export-ready');
    await rights.getByRole('button', { name: words.erase }).click();
    const erase = page.getByTestId('erase-dialog');
    const username = (await page.getByTestId('profile-username').inputValue()).trim();
    await erase.getByTestId('erase-confirm-input').fill(username);
    await erase.getByTestId('erase-confirm').click();
    await expect(page.getByTestId('login-button')).toBeVisible();
    await expect(page.getByTestId('account-erased-notice')).toBeVisible();
    await shot(page, '08-erased');
    await page.context().close();
  });
}

test('the console stays quiet: no route-mapping lines and no in-memory adapter warning at start and sign-in', () => {
  const output = app.output();
  expect(output).not.toMatch(/Mapped \{/);
  expect(output).not.toMatch(/RouterExplorer|RoutesResolver/);
  expect(output).not.toMatch(/in-memory adapter/);
});
