import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import * as client from 'openid-client';

/** The app's public origin (its APP_URL, so the OAuth issuer), as playwright.config.ts starts it. */
export const APP_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100';

/** Where the specs write screenshots for a person to look at: outside the repository. */
export const SHOTS_DIR = process.env.E2E_SHOTS_DIR ?? path.join(os.tmpdir(), 'e2e-shots');

/** A client application as `POST /oauth_clients` answers (the secret only this once). */
export interface CreatedApp {
  id: string;
  name: string;
  client_id: string;
  client_secret: string | null;
  client_type: 'confidential' | 'public';
  redirect_uri: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  allowed_scopes: string[];
  description: string | null;
  active: boolean;
  has_secret: boolean;
  require_pushed_authorization_requests: boolean;
  created_at: string;
  owner_user_id: string | null;
}

/** Registers a client application through the real admin API. */
export async function createApp(
  request: APIRequestContext,
  adminToken: string,
  input: {
    name: string;
    redirect_uris: string[];
    post_logout_redirect_uris?: string[];
    client_type?: 'confidential' | 'public';
    allowed_scopes?: string[];
    description?: string;
    require_pushed_authorization_requests?: boolean;
  },
): Promise<CreatedApp> {
  const response = await request.post('/oauth_clients', { headers: { authorization: `Bearer ${adminToken}` }, data: input });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CreatedApp;
}

/**
 * The third-party app's side of the redirect: a tiny HTTP server on 127.0.0.1 whose
 * `/callback` (and any other path) answers 200 "ok" and records every request it got.
 */
export interface CallbackServer {
  /** `http://127.0.0.1:<port>/callback`, the redirect URI to register. */
  redirectUri: string;
  origin: string;
  /** Every URL the server was asked for, oldest first. */
  hits: URL[];
  close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', origin));
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end('ok');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    redirectUri: `${origin}/callback`,
    origin,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The app's configuration as an outside client discovers it (plain http is allowed: the suite runs on 127.0.0.1). */
export function discover(clientId: string, auth: client.ClientAuth): Promise<client.Configuration> {
  return client.discovery(new URL(APP_URL), clientId, undefined, auth, { execute: [client.allowInsecureRequests] });
}

/** An authorization request built by openid-client, with the values its answer must be checked against. */
export interface AuthorizationRequest {
  url: URL;
  verifier: string;
  nonce: string;
  state: string;
}

export async function authorizationRequest(config: client.Configuration, redirectUri: string, scope: string): Promise<AuthorizationRequest> {
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
  });
  return { url, verifier, nonce, state };
}

/** Waits until the browser has arrived at the app's redirect URI and answers that URL. */
export async function arrivalAt(page: Page, redirectUri: string): Promise<URL> {
  await page.waitForURL((url) => `${url.origin}${url.pathname}` === redirectUri);
  await expect(page.locator('body')).toHaveText('ok');
  return new URL(page.url());
}

/** The code exchange as the app does it: PKCE verifier, nonce, state and the ID token all checked by openid-client. */
export function exchangeCode(config: client.Configuration, back: URL, request: AuthorizationRequest) {
  return client.authorizationCodeGrant(config, back, {
    pkceCodeVerifier: request.verifier,
    expectedNonce: request.nonce,
    expectedState: request.state,
    idTokenExpected: true,
  });
}

/** `GET /api/v1/me` with an app's access token. */
export function appMe(request: APIRequestContext, accessToken: string) {
  return request.get('/api/v1/me', { headers: { authorization: `Bearer ${accessToken}` } });
}
