import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { SHOTS, animationsSettled, expectAccessible, expectFocusVisible, tabTo, useLanguage, type UiLanguage } from '../support/a11y.js';
import { seedSession, signIn } from '../support/db.js';
import { arrivalAt, authorizationRequest, createApp, discover, startCallbackServer, type CallbackServer, type CreatedApp } from '../support/oauth.js';

// Issue 8 part 3: every page and dialog passes axe-core (no serious or critical violation) in
// Spanish and in English, and the main flows work with the keyboard alone.

let callback: CallbackServer;
let app: CreatedApp;

test.beforeAll(async ({ request }) => {
  mkdirSync(SHOTS, { recursive: true });
  callback = await startCallbackServer();
  const admin = await seedSession('admin');
  app = await createApp(request, admin.token, {
    name: 'Agenda Accesible',
    client_type: 'confidential',
    redirect_uris: [callback.redirectUri],
    description: 'Una aplicación para comprobar la accesibilidad',
  });
});

test.afterAll(async () => {
  await callback?.close();
});

/** The consent page for `app`, as an outside client would send the browser there. */
async function consentUrl(scope = 'openid profile'): Promise<string> {
  const config = await discover(app.client_id, client.None());
  return (await authorizationRequest(config, callback.redirectUri, scope)).url.href;
}

const PUBLIC_PAGES = ['/contact', '/privacy-policy', '/terms-of-use', '/legal', '/cookies-policy'] as const;

async function gotoAndSettle(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
}

for (const language of ['es', 'en'] as const satisfies UiLanguage[]) {
  test.describe(`axe, ${language}`, () => {
    // Each test visits many screens and runs axe on each.
    test.describe.configure({ timeout: 120_000 });

    test.beforeEach(async ({ page }) => {
      await useLanguage(page, language);
    });

    test('signed out: landing, public pages, login dialog, cart, country picker and consent', async ({ page }) => {
      await gotoAndSettle(page, '/');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.getByTestId('service-card')).toHaveCount(11);
      await expectAccessible(page, `${language} / (signed out)`);

      // Cards show their uses on keyboard focus: the back side must pass too.
      await page.getByTestId('service-card').first().getByTestId('service-card-face').focus();
      await expectAccessible(page, `${language} / carousel card focused`, { include: '[data-testid="carousel-track"]' });

      await page.getByTestId('login-button').click();
      await expect(page.getByTestId('login-dialog')).toBeVisible();
      await expectAccessible(page, `${language} login dialog`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('login-dialog')).toBeHidden();

      // The cart signed out asks to sign in first (the subscription flow's only dialog).
      await page.getByTestId('edition-buy').first().click();
      await expect(page.getByTestId('login-dialog')).toBeVisible();
      await expectAccessible(page, `${language} cart → login dialog`);
      await page.keyboard.press('Escape');

      await page.getByTestId('language-button').click();
      await expect(page.getByTestId('country-picker')).toBeVisible();
      await expectAccessible(page, `${language} country picker`);
      await page.keyboard.press('Escape');

      for (const path of PUBLIC_PAGES) {
        await gotoAndSettle(page, path);
        await expectAccessible(page, `${language} ${path} (signed out)`);
      }

      await page.goto(await consentUrl());
      await expect(page.getByTestId('consent-sign-in')).toBeVisible();
      await expectAccessible(page, `${language} /oauth/authorize (signed out)`);
    });

    test('signed in: landing, dashboard, credentials dialog, profile, side menu, public pages and consent', async ({ page }) => {
      await signIn(page, await seedSession('user'));
      await gotoAndSettle(page, '/');
      await expect(page.getByTestId('header-username')).toBeVisible();
      await expectAccessible(page, `${language} / (signed in)`);

      await page.getByTestId('menu-button').click();
      await expect(page.getByTestId('side-menu')).toBeVisible();
      await expectAccessible(page, `${language} side menu`);
      await page.keyboard.press('Escape');

      await gotoAndSettle(page, '/dashboard');
      await expect(page.getByTestId('service-tile').first()).toBeVisible();
      await expectAccessible(page, `${language} /dashboard`);

      await page.getByTestId('service-tile').first().getByTestId('service-edit').click();
      const credentials = page.getByTestId('credentials-dialog');
      await expect(credentials).toBeVisible();
      await expect(credentials.getByTestId('credentials-client-id')).toBeEnabled();
      await expectAccessible(page, `${language} credentials dialog`);
      await page.keyboard.press('Escape');

      await gotoAndSettle(page, '/profile');
      await expect(page.getByTestId('profile-username')).not.toHaveValue('');
      await expectAccessible(page, `${language} /profile`);
      await page.getByTestId('erase-account-open').click();
      await expect(page.getByTestId('erase-dialog')).toBeVisible();
      await expectAccessible(page, `${language} /profile erase account dialog`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('erase-dialog')).toBeHidden();
      await expect(page.getByTestId('erase-account-open')).toBeFocused();

      for (const path of PUBLIC_PAGES) {
        await gotoAndSettle(page, path);
        await expectAccessible(page, `${language} ${path} (signed in)`);
      }

      await page.goto(await consentUrl());
      await expect(page.getByTestId('consent-allow')).toBeVisible();
      await expectAccessible(page, `${language} /oauth/authorize (signed in)`);
    });

    test('admin panel: every section, the Salud tabs and every dialog', async ({ page }) => {
      await signIn(page, await seedSession('admin'));
      await gotoAndSettle(page, '/dashboard');
      await expect(page.getByTestId('service-tile').first()).toBeVisible();
      // An admin's edit button on the dashboard opens the service edit dialog (docs/decisions/0009).
      await page.getByTestId('service-tile').first().getByTestId('service-edit').click();
      await expect(page.getByTestId('service-dialog')).toBeVisible();
      await expectAccessible(page, `${language} dashboard service dialog`);
      await page.keyboard.press('Escape');

      await page.getByTestId('admin-gear').click();
      const panel = page.getByTestId('admin-panel');
      await expect(panel).toBeVisible();

      await page.getByTestId('admin-nav-betainvites').click();
      await expect(page.getByTestId('invites-table')).toBeVisible();
      await expectAccessible(page, `${language} admin: betainvites`);

      await page.getByTestId('admin-nav-loginproviders').click();
      await expect(page.getByTestId('provider-row').first()).toBeVisible();
      await expectAccessible(page, `${language} admin: loginproviders`);
      await page.getByTestId('provider-add').click();
      await expect(page.getByTestId('provider-form')).toBeVisible();
      await expectAccessible(page, `${language} admin: new login provider`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('provider-form')).toBeHidden();
      await page.getByTestId('provider-edit').first().click();
      await expect(page.getByTestId('provider-form')).toBeVisible();
      await expectAccessible(page, `${language} admin: edit login provider`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('provider-form')).toBeHidden();

      await page.getByTestId('admin-nav-servicios').click();
      await expect(page.getByTestId('service-row').first()).toBeVisible();
      await expectAccessible(page, `${language} admin: servicios`);
      await page.getByTestId('service-row').first().getByTestId('service-edit').click();
      await expect(page.getByTestId('service-dialog')).toBeVisible();
      await page.getByTestId('service-advanced').locator('summary').click();
      await expectAccessible(page, `${language} admin: edit service`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('service-dialog')).toBeHidden();

      await page.getByTestId('admin-nav-aplicaciones').click();
      const row = page.locator(`[data-testid="app-row"][data-client-id="${app.client_id}"]`);
      await expect(row).toBeVisible();
      await expectAccessible(page, `${language} admin: aplicaciones`);
      await page.getByTestId('app-add').click();
      await expect(page.getByTestId('app-dialog')).toBeVisible();
      await expectAccessible(page, `${language} admin: new app`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('app-dialog')).toBeHidden();
      await row.getByTestId('app-edit').click();
      await expect(page.getByTestId('app-dialog')).toBeVisible();
      await expectAccessible(page, `${language} admin: edit app`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('app-dialog')).toBeHidden();
      await row.getByTestId('app-authorize').click();
      const authorize = page.getByTestId('authorize-dialog');
      await expect(authorize).toBeVisible();
      await expect(page.frameLocator('[data-testid="authorize-frame"]').getByTestId('consent-allow')).toBeVisible();
      await expectAccessible(page, `${language} admin: authorize dialog`);
      await page.keyboard.press('Escape');
      await expect(authorize).toBeHidden();

      await page.getByTestId('admin-nav-salud').click();
      await expect(page.getByTestId('system-status')).toBeVisible();
      await expectAccessible(page, `${language} admin: salud (estado)`);
      await page.getByTestId('system-health-tab-audit').click();
      await expect(page.getByTestId('audit-log')).toBeVisible();
      await expect(page.getByTestId('audit-row').first()).toBeVisible();
      await expectAccessible(page, `${language} admin: salud (auditoría)`);

      await page.getByTestId('admin-header-contactmessages').click();
      await expect(page.getByTestId('contact-messages')).toBeVisible();
      await expectAccessible(page, `${language} admin: contact messages`);
    });
  });
}

test('dashboard cards: the state in words and an icon, and the coloured bar at 3:1 against the card', async ({ page }) => {
  await signIn(page, await seedSession('user'));
  await page.goto('/dashboard');
  const tile = page.getByTestId('service-tile').first();
  await expect(tile).toHaveAttribute('data-connected', 'false');
  const status = tile.getByTestId('service-status');
  await expect(status).toHaveText('Desconectado');
  await expect(status.locator('svg')).toHaveCount(1);
  // Non-text contrast (WCAG 1.4.11): the bar against the card's background, colours resolved by a canvas.
  const ratio = await tile.evaluate((card) => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    const rgb = (color: string) => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = color;
      canvas.fillRect(0, 0, 1, 1);
      return Array.from(canvas.getImageData(0, 0, 1, 1).data.slice(0, 3));
    };
    const luminance = (color: string) => {
      const [r, g, b] = rgb(color).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const bar = luminance(getComputedStyle(card.querySelector('[data-testid="service-tile-bar"]')!).backgroundColor);
    const background = luminance(getComputedStyle(card).backgroundColor);
    return (Math.max(bar, background) + 0.05) / (Math.min(bar, background) + 0.05);
  });
  expect(ratio).toBeGreaterThanOrEqual(3);
});

test.describe('touch', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 360, height: 740 } });

  test('a tap turns a card to its uses and another tap turns it back (the tap focus does not hold it)', async ({ page }) => {
    await page.goto('/');
    const card = page.getByTestId('service-card').nth(1);
    await card.tap();
    await expect(card).toHaveAttribute('data-showing', 'back');
    await expect(card.getByTestId('service-card-back').getByRole('listitem')).toHaveCount(3);
    await card.tap();
    await expect(card).toHaveAttribute('data-showing', 'front');
  });
});

test.describe('keyboard only', () => {
  test('the sign-in dialog: Tab to Login, Enter, move through the providers, Escape closes and focus returns', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('service-card')).toHaveCount(11);
    const login = page.getByTestId('login-button');
    await tabTo(page, login);
    await expectFocusVisible(login);
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Elige cómo loguearte' });
    await expect(dialog).toBeVisible();
    const providers = ['github', 'google', 'microsoft', 'apple'].map((provider) => dialog.getByTestId(`login-provider-${provider}`));
    await expect(providers[0]!).toBeFocused();
    for (const provider of providers.slice(1)) {
      await page.keyboard.press('Tab');
      await expectFocusVisible(provider);
    }
    // Then the close button, and the focus stays trapped in the dialog.
    await page.keyboard.press('Tab');
    await expectFocusVisible(dialog.getByRole('button', { name: 'Cerrar' }));
    await page.keyboard.press('Tab');
    await expect(providers[0]!).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(login).toBeFocused();

    // Enter on a provider starts the sign-in there.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(providers[1]!).toBeFocused();
    const started = page.waitForRequest((req) => new URL(req.url()).pathname === '/login/google');
    await page.keyboard.press('Enter');
    await started;
  });

  test('the consent screen: Tab to Permitir, Enter, and the browser goes to the redirect URI', async ({ page }) => {
    await signIn(page, await seedSession('user'));
    const url = await consentUrl('openid');
    await page.goto(url);
    const allow = page.getByRole('button', { name: 'Permitir' });
    await expect(allow).toBeVisible();
    await tabTo(page, allow);
    await expectFocusVisible(allow);
    await page.keyboard.press('Enter');
    const back = await arrivalAt(page, callback.redirectUri);
    expect(back.searchParams.get('code')).toMatch(/^lac_/);
    expect(callback.hits.map((hit) => hit.href)).toContain(back.href);
  });

  test('the landing carousel: arrows and cards by keyboard, the uses shown on focus', async ({ page }) => {
    await page.setViewportSize({ width: 900, height: 800 });
    await page.goto('/');
    await expect(page.getByTestId('service-card')).toHaveCount(11);
    const track = page.getByTestId('carousel-track');

    const next = page.getByTestId('carousel-next');
    await tabTo(page, next);
    await expectFocusVisible(next);
    await page.keyboard.press('Enter');
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(300);
    await page.keyboard.press('Space');
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(600);
    await page.keyboard.press('Shift+Tab');
    const prev = page.getByTestId('carousel-prev');
    await expectFocusVisible(prev);
    await page.keyboard.press('Enter');
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(300);

    // Every card is a Tab stop; a focused card turns to its three uses, and the track follows the focus.
    const cards = page.getByTestId('service-card');
    const first = cards.first();
    await tabTo(page, first.getByTestId('service-card-face'));
    await expectFocusVisible(first.getByTestId('service-card-face'));
    await expect(first).toHaveAttribute('data-showing', 'back');
    await expect(first.getByTestId('service-card-back')).toBeInViewport();
    await expect(first.getByTestId('service-card-back').getByRole('listitem')).toHaveCount(3);
    await animationsSettled(page);
    await track.screenshot({ path: path.join(SHOTS, 'landing-card-keyboard-focus.png') });
    for (let i = 1; i < 11; i++) {
      await page.keyboard.press('Tab');
      const card = cards.nth(i);
      await expect(card.getByTestId('service-card-face')).toBeFocused();
      await expect(card).toHaveAttribute('data-showing', 'back');
      await expect(card).toBeInViewport({ ratio: 0.9 });
    }
    await expect(first).toHaveAttribute('data-showing', 'front');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('edition-buy').first()).toBeFocused();
  });

  test('dialogs give the focus back to their opener: side menu, country picker, admin panel and its dialogs', async ({ page }) => {
    await signIn(page, await seedSession('admin'));
    await page.goto('/');
    await expect(page.getByTestId('header-username')).toBeVisible();

    const menu = page.getByTestId('menu-button');
    await tabTo(page, menu);
    await expectFocusVisible(menu);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('side-menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('side-menu')).toBeHidden();
    await expect(menu).toBeFocused();

    const language = page.getByTestId('language-button');
    await tabTo(page, language);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('country-search')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(language).toBeFocused();

    const gear = page.getByTestId('admin-gear');
    await tabTo(page, gear);
    await expectFocusVisible(gear);
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('admin-panel');
    await expect(panel).toBeVisible();
    // The menu's sections by keyboard.
    const invites = page.getByTestId('admin-nav-betainvites');
    await tabTo(page, invites);
    await expectFocusVisible(invites);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('admin-section-betainvites')).toBeVisible();

    const providers = page.getByTestId('admin-nav-loginproviders');
    await tabTo(page, providers);
    await page.keyboard.press('Enter');
    const add = page.getByTestId('provider-add');
    await tabTo(page, add);
    await expectFocusVisible(add);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('provider-form')).toBeVisible();
    // As a person does: Escape once the dialog has the focus (pressed earlier, on a busy machine, it
    // could reach the admin panel's own dialog and close both).
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"] [data-testid="provider-form"], [data-testid="provider-form"]')))
      .toBe(true);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('provider-form')).toBeHidden();
    await expect(add).toBeFocused();

    // Escape closes the panel itself and the gear gets the focus back.
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(gear).toBeFocused();
  });
});
