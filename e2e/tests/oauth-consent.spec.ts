import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { seedSession, signIn, withDb, type SeededSession } from '../support/db.js';
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
  type CreatedApp,
} from '../support/oauth.js';

// Issue 5: the authorization server as an outside app meets it. openid-client (written
// independently of this server) builds every request and checks every answer; the person
// answers on the real consent page in Chromium; the app's redirect URI is a local server.

const GITHUB_PERSON = { email: 'octo@example.com', username: 'octo-tester' };

let callback: CallbackServer;
let adminToken: string;

test.beforeAll(async ({ request }) => {
  callback = await startCallbackServer();
  adminToken = await configureProviders(request);
  await invite(request, adminToken, GITHUB_PERSON.email);
});

test.afterAll(async () => {
  await callback?.close();
});

const newApp = (request: APIRequestContext, name: string, client_type: 'public' | 'confidential' = 'public') =>
  createApp(request, adminToken, { name, client_type, redirect_uris: [callback.redirectUri] });

const consentCard = (page: Page) => page.getByTestId('consent-request');

/** The consent question as a signed-in person sees it. */
async function expectQuestion(page: Page, appName: string, descriptions: string[]): Promise<void> {
  const card = consentCard(page);
  await expect(card.getByRole('heading', { name: 'Solicitud de acceso' })).toBeVisible();
  await expect(card.getByTestId('consent-request-text')).toHaveText(`La aplicación ${appName} solicita permiso para:`);
  await expect(card.getByTestId('consent-scopes').getByRole('listitem')).toHaveText(descriptions);
  await expect(card.getByRole('button', { name: 'Permitir' })).toBeEnabled();
  await expect(card.getByRole('button', { name: 'Denegar' })).toBeEnabled();
}

const grantsOf = async (request: APIRequestContext, person: SeededSession) =>
  (await (await request.get('/api/users/me/apps', { headers: { authorization: `Bearer ${person.token}` } })).json()) as {
    client_id: string;
    scopes: { scope: string }[];
  }[];

test.describe('the whole flow, driven by openid-client', () => {
  test('public client: discovery, PKCE + nonce + state, consent in the browser, ID token, userinfo, refresh, revocation', async ({ page, request }) => {
    const app = await newApp(request, 'Agenda Pública');
    expect(app.client_secret).toBeNull();
    const person = await seedSession('user');
    await signIn(page, person);

    const config = await discover(app.client_id, client.None());
    expect(config.serverMetadata()).toMatchObject({
      issuer: APP_URL,
      authorization_endpoint: `${APP_URL}/oauth/authorize`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    const authorization = await authorizationRequest(config, callback.redirectUri, 'openid profile email');
    expect(authorization.url.searchParams.get('code_challenge_method')).toBe('S256');

    await page.goto(authorization.url.href);
    await expectQuestion(page, 'Agenda Pública', ['Confirmar quién eres en Life', 'Ver tu nombre de usuario', 'Ver tu dirección de e-mail']);
    await consentCard(page).getByRole('button', { name: 'Permitir' }).click();

    const back = await arrivalAt(page, callback.redirectUri);
    // The app's server really got the browser's request, with the code, state and iss (RFC 9207).
    expect(callback.hits.map((hit) => hit.href)).toContain(back.href);
    expect(back.searchParams.get('state')).toBe(authorization.state);
    expect(back.searchParams.get('iss')).toBe(APP_URL);
    expect(back.searchParams.get('code')).toMatch(/^lac_/);

    const tokens = await exchangeCode(config, back, authorization);
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      sub: person.user.id,
      aud: app.client_id,
      iss: APP_URL,
      nonce: authorization.nonce,
      email: person.user.email,
      preferred_username: person.user.username,
    });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('openid profile email');
    expect(tokens.access_token).toMatch(/^lat_/);
    expect(tokens.refresh_token).toMatch(/^lrt_/);

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, person.user.id);
    expect(userinfo).toMatchObject({ sub: person.user.id, email: person.user.email, preferred_username: person.user.username });
    const me = await appMe(request, tokens.access_token);
    expect(me.status()).toBe(200);
    expect(await me.json()).toEqual({ sub: person.user.id, username: person.user.username, email: person.user.email });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toMatch(/^lrt_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await appMe(request, refreshed.access_token)).status()).toBe(200);

    // Revoking the refresh token ends its whole family, the access token issued with it included.
    await client.tokenRevocation(config, refreshed.refresh_token!);
    const refused = await appMe(request, refreshed.access_token);
    expect(refused.status()).toBe(401);
    expect(refused.headers()['www-authenticate']).toContain('invalid_token');
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  test('confidential client: client_secret_basic, introspection of its own tokens only, revocation, client_credentials', async ({ page, request }) => {
    const app = await newApp(request, 'Agenda Confidencial', 'confidential');
    expect(app.client_secret).toMatch(/^lcs_/);
    const person = await seedSession('user');
    await signIn(page, person);
    const config = await discover(app.client_id, client.ClientSecretBasic(app.client_secret!));

    const authorization = await authorizationRequest(config, callback.redirectUri, 'openid read');
    await page.goto(authorization.url.href);
    await expectQuestion(page, 'Agenda Confidencial', ['Confirmar quién eres en Life', 'Ver tu perfil básico y qué servicios tienes conectados']);
    await consentCard(page).getByRole('button', { name: 'Permitir' }).click();
    const tokens = await exchangeCode(config, await arrivalAt(page, callback.redirectUri), authorization);
    expect(tokens.claims()).toMatchObject({ sub: person.user.id, aud: app.client_id, iss: APP_URL });

    expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({
      active: true,
      client_id: app.client_id,
      sub: person.user.id,
      username: person.user.username,
      scope: 'openid read',
      token_type: 'Bearer',
      iss: APP_URL,
    });
    expect(await client.tokenIntrospection(config, tokens.refresh_token!)).toMatchObject({ active: true, token_type: 'refresh_token' });

    // Another confidential app learns nothing about these tokens.
    const other = await newApp(request, 'Otra App', 'confidential');
    const otherConfig = await discover(other.client_id, client.ClientSecretBasic(other.client_secret!));
    expect(await client.tokenIntrospection(otherConfig, tokens.access_token)).toEqual({ active: false });

    await client.tokenRevocation(config, tokens.access_token);
    expect(await client.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    expect((await appMe(request, tokens.access_token)).status()).toBe(401);

    const machine = await client.clientCredentialsGrant(config);
    expect(machine.access_token).toMatch(/^lat_/);
    expect(machine.refresh_token).toBeUndefined();
    expect(machine.id_token).toBeUndefined();
    const machineInfo = await client.tokenIntrospection(config, machine.access_token);
    expect(machineInfo).toMatchObject({ active: true, client_id: app.client_id });
    expect(machineInfo.sub).toBeUndefined();
    // An app token without a person has no /api/v1/me.
    expect((await appMe(request, machine.access_token)).status()).toBe(401);
  });
});

test('signed out: the consent page offers GitHub, and after signing in the person is back on the same request', async ({ page, request }) => {
  const app = await newApp(request, 'Agenda Sin Sesión');
  const config = await discover(app.client_id, client.None());
  const authorization = await authorizationRequest(config, callback.redirectUri, 'openid profile');
  const consentPath = `${authorization.url.pathname}${authorization.url.search}`;

  await page.goto(authorization.url.href);
  const prompt = page.getByTestId('consent-sign-in');
  await expect(prompt.getByRole('heading', { name: 'Inicia sesión para continuar' })).toBeVisible();
  await expect(prompt).toContainText('Agenda Sin Sesión quiere acceder a tu cuenta de Life');
  await expect(page.getByRole('button', { name: 'Permitir' })).toHaveCount(0);
  const login = prompt.getByRole('link', { name: 'Iniciar sesión con GitHub' });
  await expect(login).toHaveAttribute('href', `/login/github?returnTo=${encodeURIComponent(consentPath)}`);

  await login.click();
  await completeAtProvider(page, 'github', GITHUB_PERSON.email);

  // Back on the very same authorization request, now signed in.
  await expect(consentCard(page)).toBeVisible();
  const current = new URL(page.url());
  expect(current.pathname).toBe('/oauth/authorize');
  expect(Object.fromEntries(current.searchParams)).toEqual(Object.fromEntries(authorization.url.searchParams));
  await expectQuestion(page, 'Agenda Sin Sesión', ['Confirmar quién eres en Life', 'Ver tu nombre de usuario']);
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();

  await consentCard(page).getByRole('button', { name: 'Permitir' }).click();
  const tokens = await exchangeCode(config, await arrivalAt(page, callback.redirectUri), authorization);
  const personId = await withDb(async (db) => (await db.query<{ id: string }>('select id from users where email = $1', [GITHUB_PERSON.email])).rows[0]?.id);
  expect(personId).toBeTruthy();
  expect(tokens.claims()).toMatchObject({ sub: personId, aud: app.client_id, preferred_username: GITHUB_PERSON.username });
});

test('Denegar sends the browser to the redirect URI with error=access_denied, the state and iss', async ({ page, request }) => {
  const app = await newApp(request, 'Agenda Rechazada');
  const person = await seedSession('user');
  await signIn(page, person);
  const config = await discover(app.client_id, client.None());
  const authorization = await authorizationRequest(config, callback.redirectUri, 'openid email');

  await page.goto(authorization.url.href);
  await expectQuestion(page, 'Agenda Rechazada', ['Confirmar quién eres en Life', 'Ver tu dirección de e-mail']);
  await consentCard(page).getByRole('button', { name: 'Denegar' }).click();

  const back = await arrivalAt(page, callback.redirectUri);
  expect(callback.hits.map((hit) => hit.href)).toContain(back.href);
  expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: authorization.state, iss: APP_URL });
  expect(back.searchParams.get('code')).toBeNull();
  // openid-client reads it as the authorization server's refusal.
  await expect(exchangeCode(config, back, authorization)).rejects.toMatchObject({ error: 'access_denied' });
  // Nothing was remembered.
  expect(await grantsOf(request, person)).toEqual([]);
});

test('remembered consent: the same app and scopes go straight back to the redirect URI, without buttons', async ({ page, request }) => {
  const app = await newApp(request, 'Agenda Recordada');
  const person = await seedSession('user');
  await signIn(page, person);
  const config = await discover(app.client_id, client.None());

  const first = await authorizationRequest(config, callback.redirectUri, 'openid profile');
  await page.goto(first.url.href);
  await expectQuestion(page, 'Agenda Recordada', ['Confirmar quién eres en Life', 'Ver tu nombre de usuario']);
  await consentCard(page).getByRole('button', { name: 'Permitir' }).click();
  await exchangeCode(config, await arrivalAt(page, callback.redirectUri), first);
  expect((await grantsOf(request, person)).map((grant) => grant.client_id)).toEqual([app.client_id]);

  // From now on: note if the question's buttons ever appear, and any POST (the server decides
  // remembered consent, decision 0033).
  let buttonsShown = false;
  await page.exposeBinding('__consentButtonsShown', () => {
    buttonsShown = true;
  });
  await page.addInitScript(() => {
    const report = () => {
      if (document.querySelector('[data-testid="consent-allow"], [data-testid="consent-deny"]')) {
        (window as unknown as { __consentButtonsShown: () => void }).__consentButtonsShown();
      }
    };
    new MutationObserver(report).observe(document, { childList: true, subtree: true });
  });
  const decisions: unknown[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/oauth/authorize') decisions.push(sent.postDataJSON());
  });
  const second = await authorizationRequest(config, callback.redirectUri, 'openid profile');
  await page.goto(second.url.href);
  // The page's words while it leaves ('Ya diste permiso a esta aplicación. Redirigiendo…') are checked in consent-page.test.tsx.
  const tokens = await exchangeCode(config, await arrivalAt(page, callback.redirectUri), second);
  expect(tokens.claims()).toMatchObject({ sub: person.user.id, aud: app.client_id });
  expect(buttonsShown).toBe(false);
  expect(decisions).toEqual([]);

  // A scope the person never gave is asked for again.
  const wider = await authorizationRequest(config, callback.redirectUri, 'openid email');
  await page.goto(wider.url.href);
  await expectQuestion(page, 'Agenda Recordada', ['Confirmar quién eres en Life', 'Ver tu dirección de e-mail']);
  await expect.poll(() => buttonsShown).toBe(true);
  expect(decisions).toEqual([]);
});

test.describe('a request the server refuses shows the reason on the page and goes nowhere', () => {
  const cases = [
    {
      what: 'an unknown client_id',
      query: (_app: CreatedApp) => ({ client_id: 'life_desconocida', redirect_uri: callback.redirectUri }),
      message: 'Esta aplicación no existe o está desactivada.',
    },
    {
      what: 'a redirect_uri that is not registered',
      query: (app: CreatedApp) => ({ client_id: app.client_id, redirect_uri: `${callback.origin}/elsewhere` }),
      message: 'La URI de redirección no coincide con ninguna registrada para esta aplicación.',
    },
  ];
  for (const { what, query, message } of cases) {
    for (const signedIn of [true, false]) {
      test(`${what} (${signedIn ? 'signed in' : 'signed out'})`, async ({ page, request }) => {
        const app = await newApp(request, 'Agenda Mal Pedida');
        if (signedIn) await signIn(page, await seedSession('user'));
        const state = `bad-${Math.random().toString(36).slice(2)}`;
        const params = new URLSearchParams({
          ...query(app),
          response_type: 'code',
          scope: 'openid',
          state,
          code_challenge: client.randomPKCECodeVerifier(),
          code_challenge_method: 'S256',
        });
        const url = `${APP_URL}/oauth/authorize?${params}`;
        await page.goto(url);

        const card = page.getByTestId('consent-error');
        await expect(card.getByRole('heading', { name: 'No se puede continuar con esta solicitud' })).toBeVisible();
        await expect(card.getByTestId('consent-error-message')).toHaveText(message);
        await expect(page.getByRole('button', { name: 'Permitir' })).toHaveCount(0);
        await expect(page.getByTestId('consent-login-github')).toHaveCount(0);
        expect(page.url()).toBe(url);
        expect(callback.hits.filter((hit) => hit.searchParams.get('state') === state || hit.pathname === '/elsewhere')).toEqual([]);
      });
    }
  }
});

test('screenshots of the consent page at 1280 and 360 px, signed in and signed out, without sideways scrolling', async ({ browser, request }) => {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const app = await newApp(request, 'Agenda de Ejemplo con un Nombre Bastante Largo');
  const config = await discover(app.client_id, client.None());
  const person = await seedSession('user');
  for (const width of [1280, 360]) {
    for (const signedIn of [true, false]) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, locale: 'es-ES' });
      const page = await context.newPage();
      if (signedIn) await signIn(page, person);
      const authorization = await authorizationRequest(config, callback.redirectUri, 'openid profile email read services:read');
      await page.goto(authorization.url.href);
      if (signedIn) {
        await expectQuestion(page, app.name, [
          'Confirmar quién eres en Life',
          'Ver tu nombre de usuario',
          'Ver tu dirección de e-mail',
          'Ver tu perfil básico y qué servicios tienes conectados',
          'Ver qué servicios tienes conectados (nunca sus credenciales)',
        ]);
      } else {
        await expect(page.getByRole('link', { name: 'Iniciar sesión con GitHub' })).toBeVisible();
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(SHOTS_DIR, `consent-${signedIn ? 'signed-in' : 'signed-out'}-${width}.png`), fullPage: true });
      await context.close();
    }
  }
});
