import { Query } from '@nestjs/cqrs';
import type { ExternalServiceDto, RefreshFailure } from '@life/contracts';
import type { OwnCredentials } from './commands.js';

/** One of a person's connections, as other modules may see it (never a token). */
export interface PersonConnection {
  service_name: string;
  status: string;
  connected_at: Date | null;
}

/** The person's connections, by service name. Answered by external-services. */
export class PersonConnectionsQuery extends Query<PersonConnection[]> {
  constructor(readonly userId: string) {
    super();
  }
}

/** Services whose token refresh is failing or gave up, most recent failure first (Salud). */
export class RefreshFailuresQuery extends Query<RefreshFailure[]> {
  constructor(readonly limit = 50) {
    super();
  }
}

/** A connection's access token for calling the service's API on the person's behalf. */
export interface UsableToken {
  accessToken: string;
  /** The scheme the service's API expects in `Authorization` (Bearer; OAuth for SoundCloud). */
  scheme: string;
  /** Headers the service wants on every API call (Notion-Version, an API key). */
  headers: Record<string, string>;
  expiresAt: Date | null;
  /** The API base of this connection's region when it differs from the catalog row's (Battle.net), else the row's. */
  baseUrl?: string | null;
  /** Query parameters to add to an API call that does not carry them (Battle.net: namespace=profile-{region}). */
  query?: Record<string, string>;
}

/** The base URL of a catalog service's API (null when not configured); 404 for an unknown service. */
export class ServiceApiBaseQuery extends Query<string | null> {
  constructor(readonly serviceName: string) {
    super();
  }
}

/**
 * A usable access token of the person's connection (refreshed first when due, under the same
 * lock as the workers). Fails with 409 when not connected or waiting for a reconnect.
 * `rejectedAccessToken`: the provider's API just refused this token (401: expired early,
 * revoked); when it is still the stored one and the connection can refresh, it is refreshed now
 * (once, whoever asks: the refresh lock and a compare on the stored token).
 */
export class ServiceAccessTokenQuery extends Query<UsableToken> {
  constructor(
    readonly userId: string,
    readonly serviceName: string,
    readonly rejectedAccessToken?: string,
  ) {
    super();
  }
}

/**
 * The service catalog with this person's connection state (secrets masked): the dashboard's list.
 * Only an admin (`asAdmin`) gets the rows' app configuration (app ids, extra headers and
 * parameters, API key header): the catalog editor needs it, a person's dashboard does not.
 */
export class ListPersonServicesQuery extends Query<ExternalServiceDto[]> {
  constructor(
    readonly userId: string,
    readonly asAdmin = false,
  ) {
    super();
  }
}

/** This person's own client credentials for a service (secret masked); 404 when there are none. */
export class OwnCredentialsQuery extends Query<OwnCredentials> {
  constructor(
    readonly userId: string,
    readonly serviceName: string,
  ) {
    super();
  }
}

/** The audit log's names for catalog rows and connections it mentions: id → the service's key. */
export class CatalogNamesQuery extends Query<{ services: Record<string, string>; connections: Record<string, string> }> {
  constructor(readonly ids: { services: readonly string[]; connections: readonly string[] }) {
    super();
  }
}
