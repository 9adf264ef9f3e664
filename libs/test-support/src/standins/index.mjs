// Starts a stand-in for each of the four login providers and says how to point
// the app's login provider rows at them (field names as PUT /api/login-providers/:id takes them).
import { randomBytes, randomUUID } from 'node:crypto';
import { exportPKCS8, generateKeyPair } from 'jose';
import { startAppleStandIn } from './apple.mjs';
import { startGithubStandIn } from './github.mjs';
import { startMicrosoftStandIn } from './microsoft.mjs';

export { startAppleStandIn } from './apple.mjs';
export { startGithubStandIn } from './github.mjs';
export { MICROSOFT_CONSUMER_TENANT, startMicrosoftStandIn } from './microsoft.mjs';

/**
 * @typedef {object} LoginProviderRow  the body of PUT /api/login-providers/:id for one provider
 * @property {'github' | 'google' | 'microsoft' | 'apple'} service_name
 * @property {string} app_id
 * @property {string} app_secret
 * @property {string} base_url
 * @property {string} auth_url
 * @property {string} token_url
 * @property {string} [user_url]
 */

/**
 * Starts GitHub, Apple, Microsoft (the identity platform v2.0: issuer per tenant, no
 * `email_verified`, optional `xms_edov`) and one OpenID Connect server for Google (the app's own
 * `startOidcServer`).
 *
 * @param {object} options
 * @param {string} options.appUrl  the app's public URL (redirect URIs are `${appUrl}/login/{provider}/callback`)
 * @param {import('./github.mjs').GithubAccount[]} [options.githubAccounts]
 * @param {import('./apple.mjs').AppleAccount} [options.appleAccount]
 * @param {import('./microsoft.mjs').MicrosoftAccount[]} [options.microsoftAccounts]  other e-mails typed on its page are personal accounts
 * @param {(options: { clients: { client_id: string, client_secret: string, redirect_uris: string[] }[], port?: number, title?: string }) => Promise<{ issuer: string, close(): Promise<void> }>} options.startOidcServer
 *   the app's own (backend/src/modules/auth/dev-idp/oidc-server.ts): the e2e runner passes the
 *   built one (backend/dist), jest the one from backend/src.
 */
export async function startAllStandIns(options) {
  const appUrl = options.appUrl.replace(/\/$/, '');
  const callback = (/** @type {string} */ provider) => `${appUrl}/login/${provider}/callback`;
  const secret = () => randomBytes(24).toString('base64url');

  const startOidc = options.startOidcServer;

  const credentials = {
    github: { clientId: `Iv1.${randomBytes(8).toString('hex')}`, clientSecret: secret() },
    google: { clientId: `${randomBytes(6).toString('hex')}.apps.googleusercontent.example`, clientSecret: secret() },
    microsoft: { clientId: randomUUID(), clientSecret: secret() },
    apple: { clientId: 'com.example.life.web', teamId: 'TEAM123456', keyId: 'KEY1234567' },
  };

  const appleKeys = await generateKeyPair('ES256', { extractable: true });
  const applePrivateKeyPem = await exportPKCS8(appleKeys.privateKey);

  /** @type {{ close(): Promise<void> }[]} */
  const started = [];
  const closeAll = async () => {
    await Promise.allSettled(started.splice(0).map((s) => s.close()));
  };
  try {
    const github = await startGithubStandIn({ ...credentials.github, accounts: options.githubAccounts });
    started.push(github);
    const apple = await startAppleStandIn({
      ...credentials.apple,
      publicKey: appleKeys.publicKey,
      redirectUri: callback('apple'),
      account: options.appleAccount,
    });
    started.push(apple);
    const microsoft = await startMicrosoftStandIn({ ...credentials.microsoft, accounts: options.microsoftAccounts });
    started.push(microsoft);
    const oidc = await startOidc({
      title: 'Google (stand-in)',
      clients: [{ client_id: credentials.google.clientId, client_secret: credentials.google.clientSecret, redirect_uris: [callback('google')] }],
    });
    started.push(oidc);

    /** @type {Record<'github' | 'google' | 'microsoft' | 'apple', LoginProviderRow>} */
    const providers = {
      github: {
        service_name: 'github',
        app_id: credentials.github.clientId,
        app_secret: credentials.github.clientSecret,
        base_url: github.url,
        auth_url: `${github.url}/login/oauth/authorize`,
        token_url: `${github.url}/login/oauth/access_token`,
        user_url: `${github.url}/user`,
      },
      google: {
        service_name: 'google',
        app_id: credentials.google.clientId,
        app_secret: credentials.google.clientSecret,
        base_url: oidc.issuer,
        auth_url: `${oidc.issuer}/auth`,
        token_url: `${oidc.issuer}/token`,
        user_url: `${oidc.issuer}/me`,
      },
      // The real row's shape: the multi-tenant "common" endpoints, Graph's OIDC userinfo.
      microsoft: {
        service_name: 'microsoft',
        app_id: credentials.microsoft.clientId,
        app_secret: credentials.microsoft.clientSecret,
        base_url: microsoft.baseUrl('common'),
        auth_url: `${microsoft.url}/common/oauth2/v2.0/authorize`,
        token_url: `${microsoft.url}/common/oauth2/v2.0/token`,
        user_url: `${microsoft.url}/oidc/userinfo`,
      },
      apple: {
        service_name: 'apple',
        app_id: credentials.apple.clientId,
        app_secret: JSON.stringify({ team_id: credentials.apple.teamId, key_id: credentials.apple.keyId, private_key: applePrivateKeyPem }),
        base_url: apple.url,
        auth_url: `${apple.url}/auth/authorize`,
        token_url: `${apple.url}/auth/token`,
      },
    };

    return {
      github,
      apple,
      microsoft,
      oidc,
      credentials,
      appleKey: { privateKeyPem: applePrivateKeyPem, publicKey: appleKeys.publicKey },
      providers,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
