import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { SHOTS, animationsSettled, expectAccessible } from '../support/a11y.js';
import { seedSession, signIn } from '../support/db.js';
import { authorizationRequest, createApp, discover, startCallbackServer, type CallbackServer, type CreatedApp } from '../support/oauth.js';

// Issue 8 part 4: landing, dashboard, profile, consent and the admin panel at phone, tablet and
// desktop widths, without sideways page scrolling (the carousel scrolls inside its own track).
// Screenshots go to /tmp/a11y-shots for a person to look at.

const WIDTHS = [360, 768, 1280] as const;

let callback: CallbackServer;
let app: CreatedApp;

test.beforeAll(async ({ request }) => {
  mkdirSync(SHOTS, { recursive: true });
  callback = await startCallbackServer();
  const admin = await seedSession('admin');
  app = await createApp(request, admin.token, {
    name: 'Agenda de Ejemplo con un Nombre Bastante Largo',
    client_type: 'confidential',
    redirect_uris: [callback.redirectUri],
    description: 'Una aplicación de ejemplo con una descripción bastante larga para ver cómo se corta',
  });
});

test.afterAll(async () => {
  await callback?.close();
});

async function consentUrl(): Promise<string> {
  const config = await discover(app.client_id, client.None());
  return (await authorizationRequest(config, callback.redirectUri, 'openid profile email')).url.href;
}

/** The page itself does not scroll sideways; on phones the layout that differs from desktop passes axe too. */
async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect.soft(scrollWidth, `${label}: document scrollWidth ${scrollWidth} > innerWidth ${innerWidth}`).toBeLessThanOrEqual(innerWidth);
  if (innerWidth <= 360) await expectAccessible(page, label);
}

/** A full-screen overlay (the admin panel) does not scroll sideways either. */
async function expectNoSidewaysScrollIn(element: Locator, label: string): Promise<void> {
  const { scrollWidth, clientWidth } = await element.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect.soft(scrollWidth, `${label}: overlay scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
}

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await animationsSettled(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

for (const width of WIDTHS) {
  test.describe(`${width} px`, () => {
    // Many screens per test (and axe on each of them at 360 px).
    test.describe.configure({ timeout: 120_000 });
    test.use({ viewport: { width, height: width === 360 ? 740 : width === 768 ? 1024 : 800 } });

    test('landing, signed out and signed in, and the consent screen', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByTestId('service-card')).toHaveCount(11);
      await expectNoSidewaysScroll(page, `${width} / (signed out)`);
      await shot(page, `landing-signed-out-${width}`);

      await page.goto(await consentUrl());
      await expect(page.getByTestId('consent-sign-in')).toBeVisible();
      await expectNoSidewaysScroll(page, `${width} consent (signed out)`);
      await shot(page, `consent-signed-out-${width}`);
    });

    test('signed in: header, landing, dashboard, profile and consent', async ({ page }) => {
      // A long username is the worst case for the header.
      await signIn(page, await seedSession('user', `usuaria_${width}_larguisima`));
      await page.goto('/');
      await expect(page.getByTestId('service-card')).toHaveCount(11);
      await expectNoSidewaysScroll(page, `${width} / (signed in)`);
      // The username keeps clear of the logout button.
      const name = await page.getByTestId('header-username').boundingBox();
      const logout = await page.getByTestId('logout-button').boundingBox();
      expect(name && logout && logout.x - (name.x + name.width)).toBeGreaterThanOrEqual(8);
      await shot(page, `landing-signed-in-${width}`);
      await page.screenshot({ path: path.join(SHOTS, `header-signed-in-${width}.png`), clip: { x: 0, y: 0, width, height: 64 } });

      await page.goto('/dashboard');
      await expect(page.getByTestId('service-tile').first()).toBeVisible();
      await expectNoSidewaysScroll(page, `${width} /dashboard`);
      await shot(page, `dashboard-${width}`);

      await page.goto('/profile');
      await expect(page.getByTestId('profile-username')).not.toHaveValue('');
      await expectNoSidewaysScroll(page, `${width} /profile`);
      await shot(page, `profile-${width}`);

      await page.goto(await consentUrl());
      await expect(page.getByTestId('consent-allow')).toBeVisible();
      await expectNoSidewaysScroll(page, `${width} consent (signed in)`);
      await shot(page, `consent-signed-in-${width}`);
    });

    test('the admin panel and every section', async ({ page }) => {
      await signIn(page, await seedSession('admin', `admin_${width}_largo`));
      await page.goto('/');
      await expect(page.getByTestId('header-username')).toBeVisible();
      await page.getByTestId('admin-gear').click();
      const panel = page.getByTestId('admin-panel');
      await expect(panel).toBeVisible();
      const menuWidth = await page.getByTestId('admin-menu').evaluate((el) => el.getBoundingClientRect().width);
      // The 240 px side menu at desktop widths; a bar across the top on smaller screens.
      if (width >= 1024) expect(menuWidth).toBe(240);
      else expect(menuWidth).toBe(width);

      const sections = [
        ['betainvites', 'invites-table'],
        ['loginproviders', 'providers-table'],
        ['servicios', 'services-table'],
        ['aplicaciones', 'apps-table'],
        ['salud', 'system-status'],
      ] as const;
      for (const [id, content] of sections) {
        await page.getByTestId(`admin-nav-${id}`).click();
        await expect(page.getByTestId(`admin-section-${id}`).getByTestId(content)).toBeVisible();
        await expectNoSidewaysScroll(page, `${width} admin ${id}`);
        await expectNoSidewaysScrollIn(panel, `${width} admin ${id}`);
        await shot(page, `admin-${id}-${width}`, false);
      }
      await page.getByTestId('system-health-tab-audit').click();
      await expect(page.getByTestId('audit-log')).toBeVisible();
      await expectNoSidewaysScroll(page, `${width} admin salud audit`);
      await expectNoSidewaysScrollIn(panel, `${width} admin salud audit`);
      await shot(page, `admin-salud-audit-${width}`, false);

      // A table too wide for a phone scrolls inside its own card, never the panel.
      await page.getByTestId('admin-nav-aplicaciones').click();
      const table = page.getByTestId('apps-table');
      await expect(table.getByTestId('app-row').first()).toBeVisible();
      const scroller = table.locator('xpath=..');
      const fits = await scroller.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth);
      expect(fits).toBe(true);

      await page.getByTestId('admin-panel-close').click();
      await expect(panel).toBeHidden();
    });
  });
}
