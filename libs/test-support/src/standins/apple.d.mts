import type { JWK } from 'jose';
import type { KeyObject } from 'node:crypto';

export interface AppleAccount {
  sub: string;
  email: string;
  firstName?: string;
  lastName?: string;
  /** Default true (sent as the string "true", like Apple). */
  emailVerified?: boolean;
}

/** Changes the next id_token, to test that the app refuses it. */
export interface AppleTamper {
  claims?: Record<string, unknown>;
  /** Sign with a key that is not in the JWKS. */
  foreignKey?: boolean;
}

export interface AppleTokenCall {
  body: Record<string, string>;
  error?: string;
  clientSecretClaims?: Record<string, unknown>;
}

export interface AppleStandIn {
  url: string;
  issuer: string;
  close(): Promise<void>;
  tokenCalls: AppleTokenCall[];
  readonly account: AppleAccount;
  setAccount(account: AppleAccount): AppleAccount;
  forget(sub: string): void;
  tamperNextIdToken(change: AppleTamper): void;
}

export declare const DEFAULT_APPLE_ACCOUNT: AppleAccount;

export declare function startAppleStandIn(options: {
  clientId: string;
  teamId: string;
  keyId: string;
  publicKey: CryptoKey | JWK | KeyObject;
  redirectUri?: string;
  account?: AppleAccount;
  port?: number;
}): Promise<AppleStandIn>;
