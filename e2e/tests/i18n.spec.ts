import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { seedSession, signIn, withDb } from '../support/db.js';
import { SHOTS_DIR, createApp } from '../support/oauth.js';

/** Picks a country through the header's language button, the way a person would. */
async function chooseCountry(page: Page, search: string, code: string): Promise<void> {
  await page.getByTestId('language-button').click();
  const picker = page.getByTestId('country-picker');
  await expect(picker).toBeVisible();
  await picker.getByTestId('country-search').fill(search);
  await picker.getByTestId(`country-option-${code}`).click();
  await expect(picker).toBeHidden();
}

const htmlLang = (page: Page) => page.locator('html');

test.describe('every language', () => {
  test('English from the picker: the landing page switches at once, sets <html lang> and survives a reload', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Conecta tu vida y aprovéchala cada día.' })).toBeVisible();
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');

    await chooseCountry(page, 'united kingdom', 'GB');
    await expect(page.getByRole('heading', { level: 1, name: 'Connect your life and make the most of every day.' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Exclusive Editions' })).toBeVisible();
    await expect(page.getByTestId('edition-price').first()).toHaveText('€2 / month');
    await expect(page.getByTestId('login-button')).toHaveText('Login');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    expect(await page.evaluate(() => localStorage.getItem('appLanguage'))).toBe('GB');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Connect your life and make the most of every day.' })).toBeVisible();
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    await expect(page.getByTestId('language-button')).toHaveAttribute('data-country', 'GB');

    // Legal texts stay Spanish, with a notice in the reader's language.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of use' }).click();
    await expect(page.getByTestId('legal-spanish-only')).toHaveText('This page is only available in Spanish.');
    await expect(page.getByRole('heading', { level: 1, name: 'Términos de uso' })).toBeVisible();
  });

  test('Japanese from the picker: landing and dashboard in Japanese, <html lang="ja">, kept after a reload', async ({ page }) => {
    await signIn(page, await seedSession('user'));
    await page.goto('/');
    await chooseCountry(page, 'japón', 'JP');
    await expect(page.getByRole('heading', { level: 1, name: 'あなたの暮らしをつなげて、毎日をもっと豊かに。' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '限定エディション' })).toBeVisible();
    await expect(page.getByTestId('edition-price').first()).toHaveText('€2 / 月');
    await expect(page.getByTestId('logout-button')).toHaveText('ログアウト');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'ja');

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'ダッシュボード' })).toBeVisible();
    await expect(page.getByText('利用できるサービス')).toBeVisible();
    await expect(page.getByPlaceholder('サービスを検索')).toBeVisible();
    await expect(htmlLang(page)).toHaveAttribute('lang', 'ja');

    await page.reload();
    await expect(page.getByText('利用できるサービス')).toBeVisible();
    await expect(htmlLang(page)).toHaveAttribute('lang', 'ja');
    expect(await page.evaluate(() => localStorage.getItem('appLanguage'))).toBe('JP');

    // And back to Spanish, the source language.
    await chooseCountry(page, 'españa', 'ES');
    await expect(page.getByText('Servicios disponibles')).toBeVisible();
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');
  });

  test('what the server writes follows the language too: consent errors and permissions, service descriptions', async ({ page, request }) => {
    const admin = await seedSession('admin');
    const app = await createApp(request, admin.token, {
      name: `Agenda ${Date.now().toString(36)}`,
      redirect_uris: ['http://127.0.0.1:7777/cb'],
      allowed_scopes: ['openid', 'profile', 'service:spotify'],
    });
    await signIn(page, await seedSession('user'));
    await page.goto('/');
    await chooseCountry(page, 'united kingdom', 'GB');

    // An unknown app: the refusal comes from the API, in English.
    await page.goto(
      '/oauth/authorize?client_id=nobody&response_type=code&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
    );
    await expect(page.getByTestId('consent-error-message')).toHaveText('This application does not exist or is disabled.');

    // A real app: what each permission means, written by the API, in English.
    const consent = new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: 'http://127.0.0.1:7777/cb',
      response_type: 'code',
      scope: 'profile service:spotify',
      state: 'xyz',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    await page.goto(`/oauth/authorize?${consent}`);
    const scopes = page.getByTestId('consent-scopes').getByRole('listitem');
    await expect(scopes).toHaveText([
      'See your username',
      'Use your connected Spotify account on your behalf and see what it brings to your day: what is playing now and what you played last',
    ]);
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS_DIR, 'consent-en.png'), fullPage: true });

    // The dashboard card shows Life's own description of a service in the language on screen (while
    // it is the shipped text: other specs may rewrite descriptions, so this one sets it first), and
    // follows a switch to Japanese without a reload.
    await withDb((db) =>
      db.query("update external_services set description = 'Tus personajes de World of Warcraft en Battle.net.' where service_name = 'wow'"),
    );
    await page.goto('/dashboard');
    const wow = page.locator('[data-testid="service-tile"][data-service="wow"]').getByTestId('service-description');
    await expect(wow).toHaveAttribute('title', 'Your World of Warcraft characters on Battle.net.');
    await wow.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'dashboard-en.png') });
    await chooseCountry(page, 'jap', 'JP');
    await expect(wow).toHaveAttribute('title', 'Battle.net の World of Warcraft のキャラクター。');

    // The consent screen follows too: the API is asked again in Japanese.
    await page.goto(`/oauth/authorize?${consent}`);
    await expect(scopes).toHaveText([
      'ユーザー名の表示',
      '連携済みの Spotify アカウントをあなたの代わりに使い、あなたの一日に届く内容を見る：再生中の曲と最近聴いた曲',
    ]);
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: path.join(SHOTS_DIR, 'consent-ja-360.png'), fullPage: true });
  });

  test('an app may ask for the consent screen in its language (ui_locales) when the visitor has not chosen one', async ({ page }) => {
    await page.goto(
      '/oauth/authorize?client_id=nobody&ui_locales=en-US%20es&response_type=code&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
    );
    await expect(page.getByTestId('consent-error-message')).toHaveText('This application does not exist or is disabled.');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    expect(await page.evaluate(() => localStorage.getItem('appLanguage'))).toBeNull();
  });

  test('the audit log names what the outbox delivered (a connection to reconnect, a new member) in the language on screen', async ({ page }) => {
    await withDb(async (db) => {
      await db.query(
        `insert into audit_events (id, at, action, actor_id, actor_label, target_type, target_id, ip, details) values
          (gen_random_uuid(), now(), 'connection.needs_reconnect', null, null, 'service_connection', gen_random_uuid()::text, null, '{"service":"notion"}'),
          (gen_random_uuid(), now(), 'billing.membership_started', null, null, 'membership', gen_random_uuid()::text, null, '{"edition":"founder","member_number":7}')`,
      );
    });
    await signIn(page, await seedSession('admin'));
    const labels = {
      es: ['Conexión pendiente de volver a conectar', 'Nuevo miembro (edición de por vida)'],
      en: ['Connection needs reconnecting', 'New member (lifetime edition)'],
    };
    for (const [language, country] of [
      ['es', null],
      ['en', 'GB'],
    ] as const) {
      for (const width of [1280, 360]) {
        if (country) await page.addInitScript((code) => localStorage.setItem('appLanguage', code), country);
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/');
        await page.getByTestId('admin-gear').click();
        await page.getByTestId('admin-nav-salud').click();
        await page.getByTestId('system-health-tab-audit').click();
        const reconnect = page.locator('[data-testid="audit-row"][data-action="connection.needs_reconnect"]').first();
        const member = page.locator('[data-testid="audit-row"][data-action="billing.membership_started"]').first();
        await expect(reconnect.getByTestId('audit-action')).toHaveText(labels[language][0]);
        await expect(member.getByTestId('audit-action')).toHaveText(labels[language][1]);
        await page.screenshot({ path: path.join(SHOTS_DIR, `audit-durable-${language}-${width}.png`) });
      }
    }
  });
});
