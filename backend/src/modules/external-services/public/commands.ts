import { Command } from '@nestjs/cqrs';
import type { ExternalServiceDto, ExternalServiceUpdate } from '@life/contracts';
import type { RotationResult } from '../../../core/crypto/sealed-columns.js';
import type { RefreshOutcome } from '../token-refresh.service.js';
import type { CheckReport } from '../../../core/config-check/config-check.js';

/** Admin: edit a catalog entry (masked secrets mean unchanged); affects every person's card. */
export class UpdateCatalogServiceCommand extends Command<ExternalServiceDto> {
  constructor(
    readonly id: string,
    readonly input: ExternalServiceUpdate,
  ) {
    super();
  }
}

/** Admin: 'Comprobar configuración' of a catalog entry (decision 0044), without connecting anyone. Rate-limited per admin. */
export class CheckCatalogServiceCommand extends Command<CheckReport> {
  constructor(
    readonly id: string,
    readonly adminId: string,
  ) {
    super();
  }
}

// A person's connections (the dashboard) and own client credentials.

/** The answer of starting a connection: the provider URL to send the browser to. */
export interface AuthUrl {
  auth_url: string;
}

/** Start connecting a service: issues a one-time state (PKCE verifier included) and builds the provider URL. */
export class StartConnectionCommand extends Command<AuthUrl> {
  constructor(
    readonly userId: string,
    readonly serviceName: string,
    /** The region picked on the card (services with regions: Battle.net). */
    readonly region?: string,
  ) {
    super();
  }
}

/** The signed-in person, as the callback's answer repeats it. */
export interface ConnectingPerson {
  id: string;
  username: string;
  email: string;
  role: 'user' | 'admin';
}

/** `GET /callback/{service}` on success. */
export interface FinishedConnection {
  service: string;
  connected: true;
  account_name: string | null;
  user: ConnectingPerson;
}

/** Finish connecting a service: consume the state issued to this person, exchange the code, store the tokens. */
export class FinishConnectionCommand extends Command<FinishedConnection> {
  constructor(
    readonly user: ConnectingPerson,
    readonly serviceName: string,
    readonly code: string,
    readonly state: string,
    /** The language the person connects in: notices about this connection are written in it. */
    readonly language?: string,
  ) {
    super();
  }
}

export interface DisconnectResult {
  service: string;
  revoked_at_provider: boolean;
  finish_at: string | null;
}

/** Disconnect: revoke at the provider where possible and delete our tokens. */
export class DisconnectServiceCommand extends Command<DisconnectResult> {
  constructor(
    readonly userId: string,
    readonly serviceName: string,
  ) {
    super();
  }
}

/** A person's own client credentials for a service, the secret always masked. */
export interface OwnCredentials {
  service_name: string;
  client_id: string;
  client_secret: string;
}

/** Save a person's own client credentials (the mask as secret keeps the stored one). */
export class SaveOwnCredentialsCommand extends Command<OwnCredentials> {
  constructor(
    readonly userId: string,
    readonly input: OwnCredentials,
  ) {
    super();
  }
}

// Workers: token refresh and key rotation.

/** Refresh one connection's access token now (a `token-refresh` job), under its lock. */
export class RefreshConnectionCommand extends Command<{ outcome: RefreshOutcome }> {
  constructor(readonly connectionId: string) {
    super();
  }
}

/** Queue a refresh for every connection that is due (expiring soon, or idle): the sweep. Answers how many were queued. */
export class QueueDueRefreshesCommand extends Command<number> {}

/**
 * Re-seal every stored secret under the key ring's primary key (a `vault-keys` job). Refused
 * when this process's primary key is not the one the requester expects.
 */
export class RotateVaultKeysCommand extends Command<RotationResult> {
  constructor(
    readonly primaryKeyId: string,
    /** Told how many values are re-sealed so far (the job's progress). */
    readonly progress?: (done: number) => Promise<void> | void,
  ) {
    super();
  }
}
