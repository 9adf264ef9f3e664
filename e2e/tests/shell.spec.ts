import { expect, test } from '@playwright/test';
import { seedSession, signIn } from '../support/db.js';

test.describe('landing, layout and legal pages', () => {
  test('shows the headline, 11 service cards and 3 editions', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Conecta tu vida y aprovéchala cada día.' })).toBeVisible();
    await expect(page.getByTestId('service-card')).toHaveCount(11);
    await expect(page.getByText('Ediciones Exclusivas')).toBeVisible();
    const editions = page.getByTestId('edition-card');
    await expect(editions).toHaveCount(3);
    // By heading: a card not on sale names the others in its reason ("se vende primero Élite, luego Prestige…").
    for (const name of ['Élite', 'Prestige', 'Legacy']) await expect(editions.filter({ has: page.getByRole('heading', { name, exact: true }) })).toHaveCount(1);
    const width = await editions.first().evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBe(300);
  });

  test('carousel arrows scroll by 300 px, smoothly', async ({ page }) => {
    await page.setViewportSize({ width: 900, height: 800 });
    await page.goto('/');
    const track = page.getByTestId('carousel-track');
    await expect(page.getByTestId('service-card')).toHaveCount(11);
    await expect(track).toHaveCSS('scroll-behavior', /.*/);
    // Record every scrollBy call the arrows make, then check where the track ends up.
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="carousel-track"]') as HTMLElement & { __calls?: unknown[] };
      el.__calls = [];
      const original = el.scrollBy.bind(el);
      el.scrollBy = ((options: ScrollToOptions) => {
        el.__calls!.push(options);
        original(options);
      }) as typeof el.scrollBy;
    });
    await page.getByTestId('carousel-next').click();
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(300);
    await page.getByTestId('carousel-next').click();
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(600);
    await page.getByTestId('carousel-prev').click();
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(300);
    const calls = await track.evaluate((el) => (el as HTMLElement & { __calls: unknown[] }).__calls);
    expect(calls).toEqual([
      { left: 300, behavior: 'smooth' },
      { left: 300, behavior: 'smooth' },
      { left: -300, behavior: 'smooth' },
    ]);
  });

  test('cards fade in with a 0.2 s stagger', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('service-card')).toHaveCount(11);
    const delays = await page.getByTestId('service-card').evaluateAll((cards) => cards.map((card) => getComputedStyle(card).animationDelay));
    expect(delays.slice(0, 4)).toEqual(['0s', '0.2s', '0.4s', '0.6s']);
  });

  test('every legal page is reachable from the footer, dated 11 August 2025', async ({ page }) => {
    const pages = [
      ['Política de privacidad', '/privacy-policy'],
      ['Términos de uso', '/terms-of-use'],
      ['Aviso legal', '/legal'],
      ['Política de cookies', '/cookies-policy'],
    ] as const;
    for (const [label, path] of pages) {
      await page.goto('/');
      await page.getByRole('contentinfo').getByRole('link', { name: label }).click();
      await expect(page).toHaveURL(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByTestId('legal-last-updated')).toContainText('11 de agosto de 2025');
    }
  });

  test('the legal notice quotes the configured company', async ({ page, request }) => {
    const site = await (await request.get('/api/site')).json();
    await page.goto('/legal');
    await expect(page.getByTestId('company-facts')).toContainText(site.company.name);
    await expect(page.getByTestId('company-facts')).toContainText(site.company.taxId);
    await expect(page.getByText(/34\/2002/).first()).toBeVisible();
  });

  test('the login dialog offers the four providers, each pointing at /login/{provider}', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('login-button').click();
    const dialog = page.getByRole('dialog', { name: 'Elige cómo loguearte' });
    await expect(dialog).toBeVisible();
    for (const [provider, label] of [
      ['github', 'GitHub'],
      ['google', 'Google'],
      ['microsoft', 'Microsoft'],
      ['apple', 'Apple'],
    ] as const) {
      await expect(dialog.getByTestId(`login-provider-${provider}`)).toHaveAccessibleName(label);
    }
    // Clicking navigates the browser to the backend path (the server then redirects to the provider).
    const requestPromise = page.waitForRequest((req) => new URL(req.url()).pathname === '/login/microsoft');
    await dialog.getByTestId('login-provider-microsoft').click();
    await requestPromise;
  });

  test('the country picker filters by country or language and persists appLanguage', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('language-button').click();
    const picker = page.getByRole('dialog', { name: 'Elige tu país' });
    await expect(picker).toBeVisible();
    await expect(picker.getByTestId(/country-option-/)).toHaveCount(10);
    await picker.getByPlaceholder('Buscar un país').fill('port');
    await expect(picker.getByTestId(/country-option-/)).toHaveCount(1);
    await expect(picker.getByTestId('country-option-BR')).toContainText('Brasil');
    await picker.getByTestId('country-option-BR').click();
    await expect(picker).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('appLanguage'))).toBe('BR');
    await page.reload();
    await expect(page.getByTestId('language-button')).toHaveAttribute('data-country', 'BR');
    expect(await page.evaluate(() => localStorage.getItem('appLanguage'))).toBe('BR');
  });

  test('signed out: a Login button, and no side menu or gear', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('login-button')).toBeVisible();
    await expect(page.getByTestId('menu-button')).toHaveCount(0);
    await expect(page.getByTestId('admin-gear')).toHaveCount(0);
  });
});

test.describe('signed-in layout', () => {
  test('a user gets the side menu (220 px) but no gear', async ({ page }) => {
    const { token, user } = await seedSession('user');
    await signIn(page, { token, user });
    await page.goto('/');
    await expect(page.getByTestId('header-username')).toHaveText(user.username);
    await expect(page.getByTestId('admin-gear')).toHaveCount(0);
    await page.getByTestId('menu-button').click();
    const menu = page.getByTestId('side-menu');
    await expect(menu).toBeVisible();
    for (const item of ['Inicio', 'Escritorio', 'Perfil']) await expect(menu.getByRole('link', { name: item })).toBeVisible();
    expect(await menu.evaluate((el) => el.getBoundingClientRect().width)).toBe(220);
  });

  test('an admin opens the admin overlay with the gear and closes it with X', async ({ page }) => {
    const { token, user } = await seedSession('admin');
    await signIn(page, { token, user });
    await page.goto('/');
    await page.getByTestId('admin-gear').click();
    const panel = page.getByTestId('admin-panel');
    await expect(panel).toBeVisible();
    await expect(page.getByTestId('admin-menu')).toContainText('Panel Admin');
    expect(await page.getByTestId('admin-menu').evaluate((el) => el.getBoundingClientRect().width)).toBe(240);
    for (const section of ['Invitaciones Beta', 'Login Providers', 'Servicios Conectados', 'Aplicaciones Conectadas', 'Salud']) {
      await expect(page.getByTestId('admin-menu')).toContainText(section);
    }
    await expect(page.getByTestId('admin-section-servicios')).toBeVisible();
    await expect(page.getByTestId('menu-button')).toHaveCount(0);
    await page.getByTestId('admin-panel-close').click();
    await expect(panel).toBeHidden();
    await expect(page.getByTestId('menu-button')).toBeVisible();
  });
});

test.describe('touch devices', () => {
  test('without touch, a click does not flip a card', async ({ page }) => {
    await page.goto('/');
    const card = page.getByTestId('service-card').first();
    await card.click();
    await expect(card).toHaveAttribute('data-flipped', 'false');
  });

  test.describe('with touch', () => {
    test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

    test('a tap flips a card to its uses and back', async ({ page }) => {
      await page.goto('/');
      const card = page.getByTestId('service-card').first();
      await card.tap();
      await expect(card).toHaveAttribute('data-flipped', 'true');
      await expect(card.getByText('Usos principales')).toBeVisible();
      await card.tap();
      await expect(card).toHaveAttribute('data-flipped', 'false');
    });
  });
});
