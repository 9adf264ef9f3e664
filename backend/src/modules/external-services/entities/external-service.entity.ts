import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Enum, Property, Unique } from '@mikro-orm/decorators/legacy';
import { SERVICE_STATUSES, type ServiceStatus } from '@life/contracts';
import { BaseEntity } from '../../../core/database/base.entity.js';

/**
 * A catalog entry of an outside service people can connect (spec section 3,
 * "External service"). `connected` is per person and lives with the connections.
 */
@Entity({ tableName: 'external_services' })
export class ExternalService extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'external_services';

  @Property({ type: 'varchar', length: 64 })
  @Unique()
  serviceName: string;

  /** A category; 'login' marks login-type services. */
  @Property({ type: 'varchar', length: 40 })
  serviceType: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Enum({ items: () => [...SERVICE_STATUSES], nativeEnumName: 'service_status' })
  status: Opt<ServiceStatus> = 'announced';

  @Property({ type: 'varchar', length: 1000, nullable: true })
  scopes?: string | null;

  @Property({ type: 'varchar', length: 500, nullable: true })
  appId?: string | null;

  /** AES-256-GCM ciphertext from the key ring; never returned by the API. */
  @Property({ type: 'text', nullable: true })
  appSecretEncrypted?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  baseUrl?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  authUrl?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  tokenUrl?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  redirectUrl?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  userUrl?: string | null;

  /** Client authentication at the token endpoint: in the body, or an HTTP Basic header. */
  @Property({ type: 'varchar', length: 10 })
  tokenAuth: Opt<'body' | 'basic'> = 'body';

  /** Token request encoding: form (RFC 6749) or JSON (Notion). */
  @Property({ type: 'varchar', length: 10 })
  tokenBody: Opt<'form' | 'json'> = 'form';

  /** Bungie refuses a `scope` parameter. */
  @Property({ type: 'boolean' })
  sendScope: Opt<boolean> = true;

  @Property({ type: 'boolean' })
  pkce: Opt<boolean> = true;

  /** Extra authorize parameters (Google: access_type=offline, prompt=consent; Notion: owner=user). */
  @Property({ type: 'jsonb' })
  extraAuthParams: Opt<Record<string, string>> = {};

  /** Headers on every call to the provider (Notion-Version). Not secret. */
  @Property({ type: 'jsonb' })
  extraHeaders: Opt<Record<string, string>> = {};

  /** Header carrying the app's API key on every call (Bungie: X-API-Key). */
  @Property({ type: 'varchar', length: 64, nullable: true })
  apiKeyHeader?: string | null;

  /** AES-256-GCM ciphertext of that API key. */
  @Property({ type: 'text', nullable: true })
  apiKeyEncrypted?: string | null;

  /** Scheme of the access token on API calls: Bearer, or OAuth (SoundCloud). */
  @Property({ type: 'varchar', length: 20 })
  apiAuthScheme: Opt<string> = 'Bearer';

  @Property({ type: 'varchar', length: 2000, nullable: true })
  revokeUrl?: string | null;

  @Property({ type: 'varchar', length: 20 })
  revokeStyle: Opt<'none' | 'rfc7009' | 'github' | 'google' | 'notion' | 'soundcloud'> = 'none';

  /** Where a person removes the app's access by hand when there is no revocation endpoint. */
  @Property({ type: 'varchar', length: 2000, nullable: true })
  accountUrl?: string | null;

  /**
   * The regions a person picks from when connecting (Battle.net: us, eu, kr, tw, cn), each with
   * the URLs it replaces and the query parameters the API wants by default; `{region}` in any URL
   * or value is the picked region. null: the service has no regions (decision 0042).
   */
  @Property({ type: 'jsonb', nullable: true })
  regions?: ServiceRegions | null;

  /**
   * A step after the OAuth grant that gives the connection a key of its own (Philips Hue: the
   * remote link button, then a bridge user whose name is the `hue-application-key`; decision 0041).
   */
  @Property({ type: 'varchar', length: 20 })
  linkStyle: Opt<LinkStyle> = 'none';
}

export const LINK_STYLES = ['none', 'hue'] as const;
export type LinkStyle = (typeof LINK_STYLES)[number];

/** What one region of a service changes: URLs (else the row's own) and default API query parameters. */
export interface ServiceRegion {
  /** The region's key (us, eu, …): what the person picks and `{region}` stands for. */
  region: string;
  auth_url?: string;
  token_url?: string;
  user_url?: string;
  base_url?: string;
  /** Added to proxied API calls that do not carry them (Battle.net: namespace=profile-{region}). */
  query?: Record<string, string>;
}
/** In the order the person is offered them; the first is the default. */
export type ServiceRegions = ServiceRegion[];
