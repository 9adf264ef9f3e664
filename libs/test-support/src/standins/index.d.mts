import type { AppleAccount, AppleStandIn } from './apple.mjs';
import type { GithubAccount, GithubStandIn } from './github.mjs';
import type { MicrosoftAccount, MicrosoftStandIn } from './microsoft.mjs';

export { startAppleStandIn } from './apple.mjs';
export { startGithubStandIn } from './github.mjs';
export { MICROSOFT_CONSUMER_TENANT, startMicrosoftStandIn } from './microsoft.mjs';
export type { MicrosoftAccount, MicrosoftStandIn, MicrosoftTokenCall } from './microsoft.mjs';
export type { AppleAccount, AppleStandIn, AppleTamper } from './apple.mjs';
export type { GithubAccount, GithubStandIn } from './github.mjs';

export type LoginProviderName = 'github' | 'google' | 'microsoft' | 'apple';

/** The body of PUT /api/login-providers/:id for one provider. */
export interface LoginProviderRow {
  service_name: LoginProviderName;
  app_id: string;
  app_secret: string;
  base_url: string;
  auth_url: string;
  token_url: string;
  user_url?: string;
}

export interface OidcStandIn {
  issuer: string;
  close(): Promise<void>;
}

export type StartOidcServer = (options: {
  clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  port?: number;
  title?: string;
}) => Promise<OidcStandIn>;

export interface AllStandIns {
  github: GithubStandIn;
  apple: AppleStandIn;
  microsoft: MicrosoftStandIn;
  /** Google's stand-in (the app's own OpenID Connect server). */
  oidc: OidcStandIn;
  credentials: {
    github: { clientId: string; clientSecret: string };
    google: { clientId: string; clientSecret: string };
    microsoft: { clientId: string; clientSecret: string };
    apple: { clientId: string; teamId: string; keyId: string };
  };
  appleKey: { privateKeyPem: string; publicKey: CryptoKey };
  providers: Record<LoginProviderName, LoginProviderRow>;
  close(): Promise<void>;
}

export declare function startAllStandIns(options: {
  appUrl: string;
  githubAccounts?: (Partial<GithubAccount> & { login: string })[];
  appleAccount?: AppleAccount;
  /** Microsoft accounts by e-mail (work accounts, xms_edov); any other e-mail typed on its page is a personal account. */
  microsoftAccounts?: MicrosoftAccount[];
  /** The app's own OpenID Connect server (backend/src/modules/auth/dev-idp/oidc-server.ts), serving Google. */
  startOidcServer: StartOidcServer;
}): Promise<AllStandIns>;
