import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { animationsSettled, useLanguage, type UiLanguage } from '../support/a11y.js';
import { holdingLock, seedSession, signIn } from '../support/db.js';

// Issue 20 point 1: with DEV_SERVICES on (playwright.config.ts), a catalog row without credentials
// is connected through its development provider, the tests' own stand-in, from the dashboard; a
// service in maintenance says so on its card and cannot be started. googledrive and googlefit are
// left unconfigured by every other spec; services-connect.spec turns googlefit active for a moment,
// under the lock `catalog:googlefit` that the tests reading it in maintenance hold too.

/** Where the screenshots of the development provider's page and the cards go (es and en, 1280 and 360 px), for a person to look at. */
const SHOTS = process.env.DEV_PROVIDERS_SHOTS_DIR ?? '/tmp/s6-shots/devproviders';
const tile = (page: Page, service: string) => page.locator(`[data-testid="service-tile"][data-service="${service}"]`);

test('Conectar on a service without credentials goes through its development provider, labelled as such, and comes back connected', async ({ page }) => {
  await signIn(page, await seedSession('user'));
  await page.goto('/dashboard');

  const drive = tile(page, 'googledrive');
  await expect(drive).toHaveAttribute('data-connected', 'false');
  await expect(drive.getByTestId('service-dev-provider')).toHaveText('Modo desarrollo: proveedor de pruebas local.');
  await drive.getByRole('button', { name: 'Conectar', exact: true }).click();

  // The development provider's own page, on its own loopback origin, in the browser's language.
  await expect(page.getByTestId('standin-banner')).toContainText('Google: proveedor de desarrollo (stand-in)');
  await expect(page.getByTestId('standin-banner')).toContainText('No es el servicio real');
  expect(new URL(page.url()).origin).not.toBe(new URL(test.info().project.use.baseURL!).origin);
  await page.getByTestId('standin-authorize').click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(drive).toHaveAttribute('data-connected', 'true');
  await expect(drive.getByTestId('service-status')).toHaveText('Conectado');
  await expect(drive.getByTestId('service-dev-provider')).toHaveCount(0);
});

test('a service in maintenance says so on its card, and its Conectar is disabled before any click', async ({ page }) => {
  await signIn(page, await seedSession('user'));
  await holdingLock('catalog:googlefit', async () => {
    await page.goto('/dashboard');
    const fit = tile(page, 'googlefit');
    await expect(fit.getByTestId('service-unavailable')).toHaveText('En mantenimiento: ahora no se puede conectar.');
    const connect = fit.getByRole('button', { name: 'Conectar', exact: true });
    await expect(connect).toBeDisabled();
    await expect(connect).toHaveAccessibleDescription('En mantenimiento: ahora no se puede conectar.');
  });
});

test.describe('screenshots', () => {
  for (const language of ['es', 'en'] as const satisfies readonly UiLanguage[]) {
    for (const width of [1280, 360]) {
      test(`${language} ${width} px: the cards and the development provider's page`, async ({ browser }) => {
        mkdirSync(SHOTS, { recursive: true });
        const context = await browser.newContext({ locale: language === 'es' ? 'es-ES' : 'en-GB', viewport: { width, height: 900 } });
        const page = await context.newPage();
        await useLanguage(page, language);
        await signIn(page, await seedSession('user'));
        await holdingLock('catalog:googlefit', async () => {
          await page.goto('/dashboard');
          const fit = tile(page, 'googlefit');
          await expect(fit.getByTestId('service-unavailable')).toBeVisible();
          await fit.scrollIntoViewIfNeeded();
          await animationsSettled(page);
          await page.screenshot({ path: path.join(SHOTS, `cards-${language}-${width}.png`) });
          await page.locator('[data-testid="services-grid"]').screenshot({ path: path.join(SHOTS, `grid-${language}-${width}.png`) });
        });

        await tile(page, 'googledrive')
          .getByRole('button', { name: language === 'es' ? 'Conectar' : 'Connect', exact: true })
          .click();
        await expect(page.getByTestId('standin-banner')).toBeVisible();
        await page.screenshot({ path: path.join(SHOTS, `dev-provider-${language}-${width}.png`), fullPage: true });
        await context.close();
      });
    }
  }
});
