import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, test, type ConsoleMessage, type Locator, type Page } from '@playwright/test';
import { seedSession, signIn } from '../support/db.js';
import { configureProviders, invite } from '../support/login.js';

/**
 * Issue 20, points 2, 7 and 10 in Chromium against the real app: what a newcomer is told on
 * arrival, each page's <title>, a browser console without handled errors, and the queue prefix
 * on Salud, with screenshots of each changed screen in Spanish and English at 1280 and 360 px
 * (FIRST_HOUR_SHOTS_DIR, /tmp by default). The whole first hour walked end to end, on an app
 * started as `npm start` starts it, is first-hour.spec.ts.
 */

const SHOTS = process.env.FIRST_HOUR_SHOTS_DIR ?? '/tmp/s6-shots/console';
const LANGUAGES = [
  ['es', 'ES'],
  ['en', 'GB'],
] as const;

let adminToken: string;

test.beforeAll(async ({ request }) => {
  adminToken = await configureProviders(request);
});

/** Errors the page itself wrote to the console (not the browser's own "Failed to load resource" line for a 4xx/5xx). */
function appErrors(page: Page): ConsoleMessage[] {
  const errors: ConsoleMessage[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message);
  });
  return errors;
}

async function shoot(page: Page, name: string, target: Locator): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const useLanguage = (page: Page, country: string) => page.addInitScript((code) => localStorage.setItem('appLanguage', code), country);

test('a signed-out visit to /dashboard says why, offers to sign in, and the sign-in comes back there', async ({ page, request }) => {
  const errors = appErrors(page);
  const login = `nuria-${randomBytes(3).toString('hex')}`;
  await invite(request, adminToken, `${login}@example.com`);

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/\?next=%2Fdashboard$/);
  const notice = page.getByTestId('sign-in-required');
  await expect(notice).toContainText('Esa página necesita que inicies sesión. Cuando entres, te llevaremos de vuelta a ella.');
  await notice.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.getByRole('dialog', { name: 'Elige cómo loguearte' }).getByRole('button', { name: 'GitHub' }).click();
  // The GitHub stand-in: its `login` parameter picks the account.
  await page.waitForURL(/\/login\/oauth\/authorize\?/);
  await page.goto(`${page.url()}&login=${login}`);
  await page.getByTestId('standin-authorize').click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('header-username')).toHaveText(login);
  await expect(page).toHaveTitle('Dashboard · Life');
  expect(errors.map((message) => message.text())).toEqual([]);
});

test('each page has its own <title>, in the language on screen', async ({ page }) => {
  const pages = [
    ['/', 'Life · Conecta tu vida y aprovéchala cada día'],
    ['/contact', 'Contacto · Life'],
    ['/privacy-policy', 'Política de privacidad · Life'],
    ['/no-existe', 'Página no encontrada · Life'],
  ] as const;
  for (const [path, title] of pages) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
  await useLanguage(page, 'GB');
  await page.goto('/contact');
  await expect(page).toHaveTitle('Contact · Life');
});

test('a handled API error is shown on the page and leaves no error in the browser console', async ({ page }) => {
  const errors = appErrors(page);
  await signIn(page, await seedSession('user'));
  await page.goto('/profile');
  const username = page.getByTestId('profile-username');
  await expect(page.getByTestId('profile-username-hint')).toHaveText(
    'Entre 3 y 32 caracteres: letras de un solo alfabeto, números, punto (.), guion (-) y guion bajo (_).',
  );
  await username.fill('no vale');
  await page.getByTestId('profile-save').click();
  // The server refuses it (400 validation_failed) and the page says why.
  await expect(page.getByTestId('profile-error')).toContainText('No se pudo actualizar el perfil');
  expect(errors.map((message) => message.text())).toEqual([]);
});

test('a failed services load says so calmly, and Reintentar loads them', async ({ page }) => {
  const errors = appErrors(page);
  await signIn(page, await seedSession('user'));
  let fail = true;
  await page.route('**/api/external-services/all', (route) =>
    fail
      ? route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'service_unavailable', message: 'Servicio no disponible' }),
        })
      : route.fallback(),
  );
  await page.goto('/dashboard');
  const message = page.getByTestId('services-load-error');
  await expect(message).toContainText('No hemos podido cargar los servicios.');
  await expect(page.getByTestId('service-tile')).toHaveCount(0);
  fail = false;
  await message.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByTestId('service-tile').first()).toBeVisible();
  await expect(message).toBeHidden();
  expect(errors.map((entry) => entry.text())).toEqual([]);
});

test('Salud shows the queue prefix in use', async ({ page }) => {
  await signIn(page, await seedSession('admin'));
  await page.goto('/');
  await page.getByTestId('admin-gear').click();
  await page.getByTestId('admin-nav-salud').click();
  const prefix = page.getByTestId('health-queue-prefix');
  // The e2e runner sets its own QUEUE_PREFIX (playwright.config.ts); Salud shows that one.
  await expect(prefix).toContainText(`Prefijo en Redis: ${process.env.E2E_QUEUE_PREFIX ?? 'lifee2e'}`);
});

for (const [language, country] of LANGUAGES) {
  test(`screenshots of the changed screens (${language})`, async ({ page }) => {
    await useLanguage(page, country);
    await page.goto('/?next=%2Fdashboard');
    await shoot(page, `${language}-landing-sign-in-required`, page.getByTestId('sign-in-required'));
    await page.goto('/?notice=account_erased');
    await shoot(page, `${language}-landing-account-erased`, page.getByTestId('account-erased-notice'));

    await signIn(page, await seedSession('admin'));
    await page.route('**/api/external-services/all', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'service_unavailable', message: 'x' }) }),
    );
    await page.goto('/dashboard');
    await shoot(page, `${language}-dashboard-load-error`, page.getByTestId('services-load-error'));
    await page.unroute('**/api/external-services/all');
    await page.goto('/profile');
    await shoot(page, `${language}-profile-username-hint`, page.getByTestId('profile-username-hint'));
    await page.getByTestId('admin-gear').click();
    await page.getByTestId('admin-nav-salud').click();
    await shoot(page, `${language}-salud-queue-prefix`, page.getByTestId('health-queue-prefix'));
  });
}
