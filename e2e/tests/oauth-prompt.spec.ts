import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { expectAccessible, useLanguage, type UiLanguage } from '../support/a11y.js';
import { seedSession, signIn, withDb, type SeededSession } from '../support/db.js';
import { completeAtProvider, configureProviders, invite } from '../support/login.js';
import {
  APP_URL,
  arrivalAt,
  createApp,
  discover,
  exchangeCode,
  startCallbackServer,
  type AuthorizationRequest,
  type CallbackServer,
} from '../support/oauth.js';

// Issue 18 point 9 (decision 0033): prompt=none, prompt=login and max_age as an outside app
// meets them. openid-client builds every request and checks every answer; the person goes
// through the real consent page and the real sign-in in Chromium.

// The GitHub stand-in's account (support/login.ts).
const PERSON = { email: 'octo@example.com' };
const SHOTS = process.env.E2E_PROMPT_SHOTS_DIR ?? '/tmp/s7-shots/prompt';

let callback: CallbackServer;
let adminToken: string;

test.beforeAll(async ({ request }) => {
  mkdirSync(SHOTS, { recursive: true });
  callback = await startCallbackServer();
  adminToken = await configureProviders(request);
  await invite(request, adminToken, PERSON.email);
});

test.afterAll(async () => {
  await callback?.close();
});

const newApp = async (request: APIRequestContext, name: string) => {
  const app = await createApp(request, adminToken, { name, client_type: 'public', redirect_uris: [callback.redirectUri] });
  return { app, config: await discover(app.client_id, client.None()) };
};

/** An authorization request built by openid-client, with OIDC's interaction parameters. */
async function authorize(config: client.Configuration, extra: Record<string, string> = {}): Promise<AuthorizationRequest> {
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callback.redirectUri,
    scope: 'openid profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
    ...extra,
  });
  return { url, verifier, nonce, state };
}

/** Notes whether the question's buttons ever appear on this page. */
async function watchButtons(page: Page): Promise<() => boolean> {
  let shown = false;
  await page.exposeBinding('__promptButtonsShown', () => {
    shown = true;
  });
  await page.addInitScript(() => {
    const report = () => {
      if (document.querySelector('[data-testid="consent-allow"], [data-testid="consent-deny"]')) {
        (window as unknown as { __promptButtonsShown: () => void }).__promptButtonsShown();
      }
    };
    new MutationObserver(report).observe(document, { childList: true, subtree: true });
  });
  return () => shown;
}

/** The GitHub sign-in from the consent page's button (the stand-in provider), back on the request. */
async function signInThroughPage(page: Page): Promise<void> {
  await page.getByTestId('consent-login-github').click();
  await completeAtProvider(page, 'github', PERSON.email);
}

const sessionToken = (page: Page) => page.evaluate(() => localStorage.getItem('authToken'));

test('prompt=none without a session: back at the app with error=login_required, state and iss; nothing shown', async ({ page, request }) => {
  const { config } = await newApp(request, 'Agenda Silenciosa');
  const buttonsShown = await watchButtons(page);
  const authorization = await authorize(config, { prompt: 'none' });

  await page.goto(authorization.url.href);
  const back = await arrivalAt(page, callback.redirectUri);
  expect(callback.hits.map((hit) => hit.href)).toContain(back.href);
  expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'login_required', state: authorization.state, iss: APP_URL });
  await expect(exchangeCode(config, back, authorization)).rejects.toMatchObject({ error: 'login_required' });
  expect(buttonsShown()).toBe(false);
});

test('prompt=none with a session: consent_required without a grant; with one, a code silently', async ({ page, request }) => {
  const { app, config } = await newApp(request, 'Agenda Recordada Sin Preguntar');
  const person: SeededSession = await seedSession('user');
  await signIn(page, person);

  const first = await authorize(config, { prompt: 'none' });
  await page.goto(first.url.href);
  const refused = await arrivalAt(page, callback.redirectUri);
  expect(Object.fromEntries(refused.searchParams)).toMatchObject({ error: 'consent_required', state: first.state, iss: APP_URL });

  // The person allows once on the question…
  const asked = await authorize(config);
  await page.goto(asked.url.href);
  await page.getByTestId('consent-allow').click();
  await exchangeCode(config, await arrivalAt(page, callback.redirectUri), asked);

  // …then prompt=none gets a code without anything on screen and without a POST from the page.
  const buttonsShown = await watchButtons(page);
  const posts: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/oauth/authorize') posts.push(sent.url());
  });
  const silent = await authorize(config, { prompt: 'none' });
  await page.goto(silent.url.href);
  const back = await arrivalAt(page, callback.redirectUri);
  expect(back.searchParams.get('code')).toMatch(/^lac_/);
  const tokens = await exchangeCode(config, back, silent);
  expect(tokens.claims()).toMatchObject({ sub: person.user.id, aud: app.client_id, auth_time: expect.any(Number) });
  expect(buttonsShown()).toBe(false);
  expect(posts).toEqual([]);
});

test('prompt=login: the person signs in (again) before deciding; the ID token says when', async ({ page, request }) => {
  const { config } = await newApp(request, 'Agenda Con Login');

  // Signed out: the sign-in first, then the question on the same request.
  const first = await authorize(config, { prompt: 'login' });
  await page.goto(first.url.href);
  await expect(page.getByTestId('consent-sign-in-title')).toHaveText('Inicia sesión para continuar');
  await signInThroughPage(page);
  await expect(page.getByTestId('consent-request')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('login_ticket')).toMatch(/^[0-9a-z]+\.[0-9a-f]{64}$/);
  // Read on our origin, before the browser leaves for the app.
  const firstSession = (await sessionToken(page))!;
  await page.getByTestId('consent-allow').click();
  const firstTokens = await exchangeCode(config, await arrivalAt(page, callback.redirectUri), first);
  expect(firstTokens.claims()!.auth_time).toEqual(expect.any(Number));
  // That sign-in now dates from ten minutes ago, so the next auth_time tells the sessions apart.
  await withDb((db) =>
    db.query(`update sessions set created_at = now() - interval '10 minutes' where token_hash = $1`, [createHash('sha256').update(firstSession).digest('hex')]),
  );

  // Signed in, with the grant: prompt=login still asks to sign in again before anything.
  const again = await authorize(config, { prompt: 'login' });
  await page.goto(again.url.href);
  const card = page.getByTestId('consent-sign-in');
  await expect(card.getByRole('heading', { name: 'Vuelve a iniciar sesión' })).toBeVisible();
  await expect(card).toContainText('Agenda Con Login pide que confirmes que eres tú.');
  await expect(page.getByTestId('consent-allow')).toHaveCount(0);
  // Whatever the page sends, the old session cannot answer it.
  const skipped = await request.post('/oauth/authorize', {
    headers: { authorization: `Bearer ${firstSession}` },
    data: { ...Object.fromEntries(again.url.searchParams), action: 'allow' },
  });
  expect([skipped.status(), (await skipped.json()).error]).toEqual([403, 'login_required']);

  await signInThroughPage(page);
  // The grant answers at once after the new sign-in: a code, with the new sign-in's auth_time.
  const back = await arrivalAt(page, callback.redirectUri);
  const tokens = await exchangeCode(config, back, again);
  // The old sign-in dates from ten minutes ago: this auth_time is the new one.
  expect(Math.floor(Date.now() / 1000) - Number(tokens.claims()!.auth_time)).toBeLessThan(300);
});

test('max_age: a sign-in older than max_age is done again, then the code; openid-client checks auth_time', async ({ page, request }) => {
  const { config } = await newApp(request, 'Agenda Con Edad');

  const first = await authorize(config);
  await page.goto(first.url.href);
  await signInThroughPage(page);
  await expect(page.getByTestId('consent-request')).toBeVisible();
  const token = (await sessionToken(page))!;
  await page.getByTestId('consent-allow').click();
  await exchangeCode(config, await arrivalAt(page, callback.redirectUri), first);

  // The session started two hours ago, as far as the server knows.
  await withDb((db) =>
    db.query(`update sessions set created_at = now() - interval '2 hours' where token_hash = $1`, [createHash('sha256').update(token).digest('hex')]),
  );

  // prompt=none cannot ask: login_required.
  const silent = await authorize(config, { prompt: 'none', max_age: '3600' });
  await page.goto(silent.url.href);
  expect(Object.fromEntries((await arrivalAt(page, callback.redirectUri)).searchParams)).toMatchObject({ error: 'login_required', state: silent.state });

  const aged = await authorize(config, { max_age: '3600' });
  await page.goto(aged.url.href);
  await expect(page.getByTestId('consent-sign-in').getByRole('heading', { name: 'Vuelve a iniciar sesión' })).toBeVisible();
  await signInThroughPage(page);
  const back = await arrivalAt(page, callback.redirectUri);
  const tokens = await client.authorizationCodeGrant(config, back, {
    pkceCodeVerifier: aged.verifier,
    expectedNonce: aged.nonce,
    expectedState: aged.state,
    idTokenExpected: true,
    maxAge: 3600,
  });
  expect(Math.floor(Date.now() / 1000) - Number(tokens.claims()!.auth_time)).toBeLessThan(600);
});

for (const language of ['es', 'en'] as const satisfies readonly UiLanguage[]) {
  test(`"sign in again" passes axe and looks right at 1280 and 360 px (${language})`, async ({ page, request }) => {
    await useLanguage(page, language);
    const { config } = await newApp(request, 'Agenda Con Login');
    await signIn(page, await seedSession('user'));
    const title = language === 'es' ? 'Vuelve a iniciar sesión' : 'Sign in again';
    const authorization = await authorize(config, { prompt: 'login' });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      await page.goto(authorization.url.href);
      await expect(page.getByTestId('consent-sign-in').getByRole('heading', { name: title })).toBeVisible();
      await expectAccessible(page, `${language} /oauth/authorize prompt=login (${width}px)`);
      await page.screenshot({ path: path.join(SHOTS, `sign-in-again-${language}-${width}.png`), fullPage: true });
    }
  });
}
