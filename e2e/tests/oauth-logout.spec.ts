import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { expectAccessible } from '../support/a11y.js';
import { seedSession, signIn, type SeededSession } from '../support/db.js';
import { completeAtProvider, configureProviders, invite } from '../support/login.js';
import {
  APP_URL,
  SHOTS_DIR,
  appMe,
  arrivalAt,
  authorizationRequest,
  createApp,
  discover,
  exchangeCode,
  startCallbackServer,
  type CallbackServer,
} from '../support/oauth.js';

// Issue 18 point 10: OpenID Connect RP-Initiated Logout 1.0 (decision 0034). openid-client builds
// the end-session URL; the person answers on the real sign-out page in Chromium; the app's
// post_logout_redirect_uri is a local server.

const GITHUB_PERSON = { email: 'octo@example.com', username: 'octo-tester' };

let callback: CallbackServer;
let adminToken: string;
let afterLogout: string;

test.beforeAll(async ({ request }) => {
  callback = await startCallbackServer();
  afterLogout = `${callback.origin}/signed-out`;
  adminToken = await configureProviders(request);
  await invite(request, adminToken, GITHUB_PERSON.email);
});

test.afterAll(async () => {
  await callback?.close();
});

const newApp = (request: APIRequestContext, name: string) =>
  createApp(request, adminToken, { name, client_type: 'public', redirect_uris: [callback.redirectUri], post_logout_redirect_uris: [afterLogout] });

const sessionWorks = async (request: APIRequestContext, token: string) =>
  (await request.get('/api/users/me', { headers: { authorization: `Bearer ${token}` } })).status();

/** An ID token for `person` (already signed in on `page`) from the real consent page. */
async function idTokenFor(page: Page, config: client.Configuration) {
  const authorization = await authorizationRequest(config, callback.redirectUri, 'openid profile');
  await page.goto(authorization.url.href);
  await page.getByTestId('consent-request').getByRole('button', { name: 'Permitir' }).click();
  return exchangeCode(config, await arrivalAt(page, callback.redirectUri), authorization);
}

test('signed in through the real pages: openid-client sends the person to sign out, they confirm, the app gets them back with state', async ({
  page,
  request,
}) => {
  const app = await newApp(request, 'Agenda Salida');
  const config = await discover(app.client_id, client.None());
  expect(config.serverMetadata().end_session_endpoint).toBe(`${APP_URL}/oauth/logout`);

  // Signs in with GitHub from the consent page, allows, and the app gets its ID token.
  const authorization = await authorizationRequest(config, callback.redirectUri, 'openid profile');
  await page.goto(authorization.url.href);
  await page.getByTestId('consent-login-github').click();
  await completeAtProvider(page, 'github', GITHUB_PERSON.email);
  await page.getByTestId('consent-request').getByRole('button', { name: 'Permitir' }).click();
  const tokens = await exchangeCode(config, await arrivalAt(page, callback.redirectUri), authorization);
  await page.goto('/');
  const session = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(session).toBeTruthy();
  expect(await sessionWorks(request, session!)).toBe(200);

  const state = client.randomState();
  const logoutUrl = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: afterLogout, state });
  expect(`${logoutUrl.origin}${logoutUrl.pathname}`).toBe(`${APP_URL}/oauth/logout`);
  await page.goto(logoutUrl.href);

  const card = page.getByTestId('logout-question');
  await expect(card.getByRole('heading', { name: '¿Cerrar sesión en Life?' })).toBeVisible();
  await expect(card.getByTestId('logout-asked')).toHaveText('Agenda Salida te pide que cierres tu sesión en Life.');
  await expect(card).toContainText(`Has iniciado sesión como ${GITHUB_PERSON.username}.`);
  await expect(card).toContainText(`Después te llevaremos de vuelta a ${callback.origin.replace('http://', '')}.`);
  await expectAccessible(page, 'sign-out question');
  // Nothing ended before the answer.
  expect(await sessionWorks(request, session!)).toBe(200);

  await card.getByRole('button', { name: 'Cerrar sesión' }).click();
  const back = await arrivalAt(page, afterLogout);
  expect(callback.hits.map((hit) => hit.href)).toContain(back.href);
  expect(back.searchParams.get('state')).toBe(state);

  // The Life session is over on the server; the app's tokens are not (a grant is consent, not a session).
  expect(await sessionWorks(request, session!)).toBe(401);
  expect((await appMe(request, tokens.access_token)).status()).toBe(200);
  await page.goto('/');
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
});

test('signed out: no question, straight back to the app with state', async ({ page, request }) => {
  const app = await newApp(request, 'Agenda Sin Sesión Salida');
  const config = await discover(app.client_id, client.None());
  const state = client.randomState();
  await page.goto(client.buildEndSessionUrl(config, { post_logout_redirect_uri: afterLogout, state }).href);
  const back = await arrivalAt(page, afterLogout);
  expect(back.searchParams.get('state')).toBe(state);
});

test('without a return address: the person confirms and sees "Has cerrado sesión"', async ({ page, request }) => {
  const app = await newApp(request, 'Agenda Sin Vuelta');
  const person = await seedSession('user');
  await signIn(page, person);
  const config = await discover(app.client_id, client.None());
  const tokens = await idTokenFor(page, config);

  await page.goto(client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! }).href);
  await page.getByTestId('logout-question').getByRole('button', { name: 'Cerrar sesión' }).click();
  const done = page.getByTestId('logout-done');
  await expect(done.getByRole('heading', { name: 'Has cerrado sesión' })).toBeVisible();
  await expect(done.getByTestId('logout-done-text')).toHaveText('Tu sesión en Life está cerrada. Ya puedes volver a Agenda Sin Vuelta.');
  await expectAccessible(page, 'signed out screen');
  expect(await sessionWorks(request, person.token)).toBe(401);
});

test.describe('never an open redirector: a refused request shows why and goes nowhere', () => {
  const cases: { what: string; params: (app: { client_id: string }, idToken: string) => Record<string, string>; message: string }[] = [
    {
      what: 'an unregistered post_logout_redirect_uri',
      params: (app) => ({ client_id: app.client_id, post_logout_redirect_uri: `${callback.origin}/elsewhere` }),
      message: 'Esa dirección de vuelta (post_logout_redirect_uri) no está registrada para esta aplicación.',
    },
    {
      what: 'a redirect URI that is not registered for logout',
      params: (app) => ({ client_id: app.client_id, post_logout_redirect_uri: callback.redirectUri }),
      message: 'Esa dirección de vuelta (post_logout_redirect_uri) no está registrada para esta aplicación.',
    },
    {
      what: 'a tampered id_token_hint',
      params: (_app, idToken) => ({ id_token_hint: `${idToken.slice(0, -6)}AAAAAA`, post_logout_redirect_uri: afterLogout }),
      message: 'El id_token_hint no es un ID token emitido por Life, o ha sido alterado.',
    },
    {
      what: 'a return address without the app',
      params: () => ({ post_logout_redirect_uri: afterLogout }),
      message: 'Para volver a la aplicación (post_logout_redirect_uri) hay que identificarla (client_id o id_token_hint).',
    },
  ];
  let person: SeededSession;
  test.beforeAll(async () => {
    person = await seedSession('user');
  });
  for (const { what, params, message } of cases) {
    test(what, async ({ page, request }) => {
      const app = await newApp(request, 'Agenda Mal Salida');
      await signIn(page, person);
      const config = await discover(app.client_id, client.None());
      const tokens = await idTokenFor(page, config);
      const state = `bad-${client.randomState()}`;
      const url = `${APP_URL}/oauth/logout?${new URLSearchParams({ ...params(app, tokens.id_token!), state })}`;
      await page.goto(url);

      const card = page.getByTestId('logout-error');
      await expect(card.getByRole('heading', { name: 'No se puede cerrar la sesión con esta solicitud' })).toBeVisible();
      await expect(card.getByTestId('logout-error-message')).toHaveText(message);
      await expect(page.getByRole('button', { name: 'Cerrar sesión' })).toHaveCount(0);
      await expectAccessible(page, `sign-out error: ${what}`);
      expect(page.url()).toBe(url);
      expect(callback.hits.filter((hit) => hit.searchParams.get('state') === state || hit.pathname === '/elsewhere')).toEqual([]);
      expect(await sessionWorks(request, person.token)).toBe(200);
    });
  }
});

test('screenshots of the sign-out page in es and en at 1280 and 360 px, without sideways scrolling', async ({ browser, request }) => {
  const dir = path.join(SHOTS_DIR, 'logout');
  mkdirSync(dir, { recursive: true });
  const app = await newApp(request, 'Agenda de Ejemplo con un Nombre Bastante Largo');
  const config = await discover(app.client_id, client.None());
  const texts = {
    es: { question: '¿Cerrar sesión en Life?', confirm: 'Cerrar sesión', done: 'Has cerrado sesión', error: 'No se puede cerrar la sesión con esta solicitud' },
    en: { question: 'Sign out of Life?', confirm: 'Sign out', done: 'You have signed out', error: 'This sign-out request cannot be completed' },
  };
  for (const language of ['es', 'en'] as const) {
    for (const width of [1280, 360]) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, locale: language === 'es' ? 'es-ES' : 'en-US' });
      const page = await context.newPage();
      await signIn(page, await seedSession('user'));
      const shot = async (name: string) => {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(dir, `${name}-${language}-${width}.png`), fullPage: true });
      };
      await page.goto(client.buildEndSessionUrl(config, { post_logout_redirect_uri: afterLogout, state: 'x', ui_locales: language }).href);
      await expect(page.getByRole('heading', { name: texts[language].question })).toBeVisible();
      await shot('question');
      await page.goto(`/oauth/logout?${new URLSearchParams({ post_logout_redirect_uri: afterLogout, ui_locales: language })}`);
      await expect(page.getByRole('heading', { name: texts[language].error })).toBeVisible();
      await shot('error');
      await page.goto(`/oauth/logout?${new URLSearchParams({ client_id: app.client_id, ui_locales: language })}`);
      await page.getByRole('button', { name: texts[language].confirm }).click();
      await expect(page.getByRole('heading', { name: texts[language].done })).toBeVisible();
      await shot('done');
      await context.close();
    }
  }
});
