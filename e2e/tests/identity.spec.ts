import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { withDb } from '../support/db.js';
import { completeAtProvider, configureProviders, invite } from '../support/login.js';

const PEOPLE = {
  github: { email: 'octo@example.com', username: 'octo-tester' },
  google: { email: 'gina@example.com', username: 'gina' },
  microsoft: { email: 'mike@example.com', username: 'mike' },
  apple: { email: 'ana.apple@example.com', username: 'AnaApple' },
} as const;

let adminToken: string;

test.beforeAll(async ({ request }) => {
  adminToken = await configureProviders(request);
  for (const person of Object.values(PEOPLE)) await invite(request, adminToken, person.email);
});

for (const provider of ['github', 'google', 'microsoft', 'apple'] as const) {
  test(`signs in with ${provider}, survives a reload and logs out`, async ({ page }) => {
    const person = PEOPLE[provider];
    await page.goto('/');
    await page.getByTestId('login-button').click();
    await page.getByTestId(`login-provider-${provider}`).click();
    await completeAtProvider(page, provider, person.email);

    await expect(page.getByTestId('header-username')).toHaveText(person.username);
    await expect(page).toHaveURL(/\/dashboard$/);
    const token = await page.evaluate(() => localStorage.getItem('authToken'));
    expect(token).toBeTruthy();

    await page.reload();
    await expect(page.getByTestId('header-username')).toHaveText(person.username);

    await page.getByTestId('logout-button').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('login-button')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    // The server revoked the session: the old token is refused.
    const me = await page.request.get('/api/users/me', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(401);
  });
}

test('Microsoft: a work account whose tenant verified its domain (xms_edov) signs in; one whose tenant did not is refused and told why', async ({
  page,
  request,
}) => {
  // The stand-in (e2e/scripts/run.mjs) knows both as work accounts of one Entra tenant (decision 0039).
  await invite(request, adminToken, 'wanda@contoso.example');
  await invite(request, adminToken, 'mallory@unverified.example');
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-provider-microsoft').click();
  await completeAtProvider(page, 'microsoft', 'wanda@contoso.example');
  await expect(page.getByTestId('header-username')).toHaveText('wanda');
  await page.getByTestId('logout-button').click();
  await expect(page.getByTestId('login-button')).toBeVisible();

  await page.getByTestId('login-button').click();
  await page.getByTestId('login-provider-microsoft').click();
  await completeAtProvider(page, 'microsoft', 'mallory@unverified.example');
  await expect(page).toHaveURL(/\/\?login_error=unverified_email/);
  await expect(page.getByTestId('login-error')).toBeVisible();
  const users = await withDb((db) => db.query(`select 1 from users where email = 'mallory@unverified.example'`));
  expect(users.rowCount).toBe(0);
});

test('a first sign-in without an invitation is refused and the landing page says why', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-provider-google').click();
  await completeAtProvider(page, 'google', 'stranger@example.com');
  await expect(page).toHaveURL(/\/\?login_error=not_invited/);
  await expect(page.getByTestId('login-error')).toContainText('beta privada');
  await expect(page.getByTestId('login-button')).toBeVisible();
  const users = await withDb((db) => db.query(`select 1 from users where email = 'stranger@example.com'`));
  expect(users.rowCount).toBe(0);
});

test('the callback page without a code processes nothing and goes home', async ({ page }) => {
  await page.goto('/login/github/callback?state=whatever');
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
});

test('a revoked session is cleared by the app on its next call', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-provider-github').click();
  await completeAtProvider(page, 'github', PEOPLE.github.email);
  await expect(page.getByTestId('header-username')).toBeVisible();
  // Only this page's session: other specs sign the same GitHub person in at the same time.
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token).toBeTruthy();
  // Signed out somewhere else (another tab): the app revokes the session and forgets it at once
  // (a row changed by hand would be seen within the server's one-second session memory).
  const logout = await page.request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  expect(logout.ok()).toBe(true);
  const revoked = await withDb((db) =>
    db.query(`select 1 from sessions where revoked_at is not null and token_hash = $1`, [createHash('sha256').update(token!).digest('hex')]),
  );
  expect(revoked.rowCount).toBe(1);
  await page.goto('/profile');
  // Home, saying a sign-in is needed, and back to /profile after it.
  await expect(page).toHaveURL(/\/\?next=%2Fprofile$/);
  await expect(page.getByTestId('sign-in-required')).toBeVisible();
  await expect(page.getByTestId('login-button')).toBeVisible();
});
