import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, useLanguage, type UiLanguage } from '../support/a11y.js';
import { seedSession, signIn } from '../support/db.js';
import { configureProviders } from '../support/login.js';

// Issue 16, part D: each login provider and each service shows the redirect URI to register, with a
// copy button, and 'Comprobar configuración' checks what is saved without starting a sign-in.

const SHOTS = process.env.E2E_SETUP_SHOTS_DIR ?? '/tmp/s8-shots/setup';

const TEXT = {
  es: {
    open: (name: string) => `Redirect URI y comprobación de ${name}`,
    copy: 'Copiar Redirect URI',
    copied: 'Copiado',
    check: 'Comprobar configuración',
    allOk: 'Todo en orden',
    problems: 'Comprobaciones con problemas',
    tokenOk: 'acepta el client id y el secreto',
    missingId: 'Falta el client id',
  },
  en: {
    open: (name: string) => `Redirect URI and check for ${name}`,
    copy: 'Copy Redirect URI',
    copied: 'Copied',
    check: 'Check configuration',
    allOk: 'All good',
    problems: 'Checks with problems',
    tokenOk: 'accepts the client id and secret',
    missingId: 'The client id (app_id) is missing',
  },
} as const;

test.beforeAll(async ({ request }) => {
  mkdirSync(SHOTS, { recursive: true });
  // The four login providers point at the stand-ins (the same rows the identity spec uses).
  await configureProviders(request);
});

/** Every result line stays inside the dialog: long URLs in messages wrap instead of widening it. */
async function expectLinesInside(page: Page, width: number) {
  const dialog = await page.getByTestId('setup-dialog').boundingBox();
  expect(dialog!.x).toBeGreaterThanOrEqual(0);
  expect(dialog!.x + dialog!.width).toBeLessThanOrEqual(width);
  for (const item of await page.getByTestId('setup-check-item').all()) {
    const box = await item.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(dialog!.x + dialog!.width);
  }
}

async function openSection(page: Page, section: 'loginproviders' | 'servicios') {
  await page.getByTestId(`admin-nav-${section}`).click();
  return page.getByTestId(`admin-section-${section}`);
}

for (const language of ['es', 'en'] as const satisfies UiLanguage[]) {
  const text = TEXT[language];

  for (const width of [1280, 360] as const) {
    test(`${language}, ${width} px: a login provider's redirect URI copies, and its check passes against the stand-in`, async ({ page, context, baseURL }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await useLanguage(page, language);
      await signIn(page, await seedSession('admin'));
      await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
      await page.goto('/');
      await page.getByTestId('admin-gear').click();
      const section = await openSection(page, 'loginproviders');
      const row = section.getByTestId('provider-row').filter({ hasText: 'github' });
      await row.getByRole('button', { name: text.open('github') }).click();

      const dialog = page.getByTestId('setup-dialog');
      await expect(dialog.getByLabel('Redirect URI', { exact: true })).toHaveValue(`${baseURL}/login/github/callback`);
      await dialog.getByRole('button', { name: text.copy }).click();
      await expect(dialog.getByRole('button', { name: text.copied })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/login/github/callback`);

      await dialog.getByRole('button', { name: text.check }).click();
      const results = dialog.getByTestId('setup-results');
      await expect(results).toHaveAttribute('data-ok', 'true');
      await expect(dialog.getByTestId('setup-summary')).toContainText(text.allOk);
      await expect(results.locator('[data-check="token_endpoint"]')).toContainText(text.tokenOk);
      await expect(results.getByRole('listitem')).toHaveCount(6);
      await expectAccessible(page, `${language} ${width} admin: login provider setup`);
      await expectLinesInside(page, width);
      await page.screenshot({ path: path.join(SHOTS, `provider-github-${language}-${width}.png`), fullPage: false });
    });

    test(`${language}, ${width} px: a service without an app says what is missing`, async ({ page }) => {
      await useLanguage(page, language);
      await signIn(page, await seedSession('admin'));
      await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
      await page.goto('/');
      await page.getByTestId('admin-gear').click();
      const section = await openSection(page, 'servicios');
      const row = section.locator('[data-testid="service-row"][data-service="spotify"]');
      await row.getByRole('button', { name: text.open('Spotify') }).click();

      const dialog = page.getByTestId('setup-dialog');
      await expect(dialog.getByLabel('Redirect URI', { exact: true })).toHaveValue(/\/callback\/spotify$/);
      await dialog.getByRole('button', { name: text.check }).click();
      const results = dialog.getByTestId('setup-results');
      await expect(results).toHaveAttribute('data-ok', 'false');
      await expect(dialog.getByTestId('setup-summary')).toContainText(text.problems);
      await expect(results.locator('[data-check="client_id"]')).toHaveAttribute('data-ok', 'false');
      await expect(results.locator('[data-check="client_id"]')).toContainText(text.missingId);
      await expectAccessible(page, `${language} ${width} admin: service setup`);
      await expectLinesInside(page, width);
      await page.screenshot({ path: path.join(SHOTS, `service-spotify-${language}-${width}.png`), fullPage: false });
    });
  }
}
