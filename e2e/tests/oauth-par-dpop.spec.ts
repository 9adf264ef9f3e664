import { expect, test, type Page } from '@playwright/test';
import * as client from 'openid-client';
import { seedSession, signIn } from '../support/db.js';
import { APP_URL, arrivalAt, createApp, discover, startCallbackServer, type CallbackServer } from '../support/oauth.js';

// Issue 18 point 11: pushed authorization requests (RFC 9126) and DPoP (RFC 9449) as an outside
// app meets them. openid-client pushes the request and makes every DPoP proof; the person answers
// on the real consent page in Chromium; the tokens are used on /api/v1 and through the proxy (to
// googledrive's development provider, DEV_SERVICES=on in playwright.config.ts), then refreshed.

let callback: CallbackServer;
let adminToken: string;

test.beforeAll(async () => {
  callback = await startCallbackServer();
  adminToken = (await seedSession('admin')).token;
});

test.afterAll(async () => {
  await callback?.close();
});

const tile = (page: Page, service: string) => page.locator(`[data-testid="service-tile"][data-service="${service}"]`);

test('PAR then DPoP, driven by openid-client: pushed request, consent in the browser, DPoP tokens on /api/v1/me and the proxy, DPoP refresh', async ({
  page,
  request,
}) => {
  const app = await createApp(request, adminToken, {
    name: 'Agenda DPoP',
    client_type: 'public',
    redirect_uris: [callback.redirectUri],
    allowed_scopes: ['openid', 'profile', 'service:googledrive'],
    require_pushed_authorization_requests: true,
  });
  expect(app.require_pushed_authorization_requests).toBe(true);
  const person = await seedSession('user');
  await signIn(page, person);

  // The person connects Google Drive through its development provider, so the proxy has somewhere to go.
  await page.goto('/dashboard');
  const drive = tile(page, 'googledrive');
  await drive.getByRole('button', { name: 'Conectar', exact: true }).click();
  await page.getByTestId('standin-authorize').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(drive).toHaveAttribute('data-connected', 'true');

  const config = await discover(app.client_id, client.None());
  expect(config.serverMetadata()).toMatchObject({
    pushed_authorization_request_endpoint: `${APP_URL}/oauth/par`,
    require_pushed_authorization_requests: false,
    dpop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const parameters = {
    redirect_uri: callback.redirectUri,
    scope: 'openid profile service:googledrive',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  };

  // This app requires PAR: a plain authorization request gets a clear error page, no redirect.
  await page.goto(client.buildAuthorizationUrl(config, parameters).href);
  await expect(page.getByTestId('consent-error-message')).toContainText('Esta aplicación debe enviar antes sus solicitudes de autorización (POST /oauth/par).');
  expect(new URL(page.url()).origin).toBe(APP_URL);

  // The push carries a DPoP proof too, so the code is bound to the key (RFC 9449 §10.1).
  const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
  const url = await client.buildAuthorizationUrlWithPAR(config, parameters, { DPoP: dpop });
  expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
  await page.goto(url.href);
  const card = page.getByTestId('consent-request');
  await expect(card.getByTestId('consent-request-text')).toHaveText('La aplicación Agenda DPoP solicita permiso para:');
  await card.getByRole('button', { name: 'Permitir' }).click();
  const back = await arrivalAt(page, callback.redirectUri);
  expect(back.searchParams.get('iss')).toBe(APP_URL);

  const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce }, undefined, {
    DPoP: dpop,
  });
  expect(tokens.token_type).toBe('dpop');
  expect(tokens.claims()).toMatchObject({ sub: person.user.id, aud: app.client_id, iss: APP_URL, nonce });

  const me = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${APP_URL}/api/v1/me`), 'GET', undefined, undefined, { DPoP: dpop });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ sub: person.user.id, username: person.user.username });
  // The same token as a Bearer token is refused: it only works with its key's proofs.
  const asBearer = await request.get('/api/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(asBearer.status()).toBe(401);
  expect(asBearer.headers()['www-authenticate']).toContain('DPoP');

  const proxied = await client.fetchProtectedResource(
    config,
    tokens.access_token,
    new URL(`${APP_URL}/api/v1/services/googledrive/proxy/v1/userinfo`),
    'GET',
    undefined,
    undefined,
    { DPoP: dpop },
  );
  expect(proxied.status).toBe(200);
  expect(proxied.headers.get('x-life-proxied-service')).toBe('googledrive');
  expect(await proxied.json()).toMatchObject({ sub: expect.any(String) });

  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop });
  expect(refreshed.token_type).toBe('dpop');
  expect(refreshed.access_token).not.toBe(tokens.access_token);
  const again = await client.fetchProtectedResource(config, refreshed.access_token, new URL(`${APP_URL}/api/v1/me`), 'GET', undefined, undefined, {
    DPoP: dpop,
  });
  expect(again.status).toBe(200);
  // Another key cannot refresh this public client's tokens.
  const stranger = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
  await expect(client.refreshTokenGrant(config, refreshed.refresh_token!, undefined, { DPoP: stranger })).rejects.toMatchObject({ error: 'invalid_grant' });
});
