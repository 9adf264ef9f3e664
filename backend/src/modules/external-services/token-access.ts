import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { serviceDisplayName } from '@life/contracts';
import { sql } from 'kysely';
import { HUE_KEY_HEADER } from './bridge-link.js';
import { CatalogService } from './catalog.service.js';
import { CONNECTIONS_TABLE, ConnectionsService } from './connections.service.js';
import type { Connection } from './entities/connection.entity.js';
import type { ExternalServicesDb } from './entities/index.js';
import { ServicesError, ServicesErrorCode } from './external-services.errors.js';
import { inRegion, regionQuery } from './regions.js';
import { TokenRefreshService } from './token-refresh.service.js';
import type { UsableToken } from './public/queries.js';
import { TokenVault } from './token-vault.js';
import { msg } from '../../core/i18n/messages.js';

export type { UsableToken } from './public/queries.js';

/** The columns of a person's connection a provider call needs, as a plain row. */
type ConnectionRow = Pick<
  Connection,
  'id' | 'status' | 'accessTokenEncrypted' | 'refreshTokenEncrypted' | 'expiresAt' | 'lastRefreshAt' | 'createdAt' | 'region' | 'linkKeyEncrypted'
>;

/**
 * A connection's access token for calling the provider's API on the person's behalf
 * (the authorization server's proxy uses it). Refreshes first when the token is within the
 * refresh margin, through the same lock as the workers, so a read never races a worker.
 *
 * On the proxy's hot path: the catalog row comes from CatalogService's short-lived per-process
 * copy and the connection from one plain query (no entity, no request context).
 */
@Injectable()
export class TokenAccess {
  constructor(
    private readonly em: EntityManager,
    private readonly catalog: CatalogService,
    private readonly refresher: TokenRefreshService,
    private readonly vault: TokenVault,
    private readonly connections: ConnectionsService,
  ) {}

  private async load(userId: string, serviceId: string): Promise<ConnectionRow | undefined> {
    const row = await this.em
      .getKysely<ExternalServicesDb>()
      .selectFrom('service_connections')
      .select([
        'id',
        'status',
        'access_token_encrypted',
        'refresh_token_encrypted',
        'expires_at',
        'last_refresh_at',
        'created_at',
        'region',
        'link_key_encrypted',
      ])
      .where('user_id', '=', userId)
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    if (!row) return undefined;
    // Timestamps arrive as ISO strings (MikroORM's pg type parsers), whatever the inferred type says.
    const date = (value: Date | string | null | undefined) => (value ? new Date(value) : null);
    return {
      id: row.id,
      status: row.status,
      accessTokenEncrypted: row.access_token_encrypted,
      refreshTokenEncrypted: row.refresh_token_encrypted,
      expiresAt: date(row.expires_at),
      lastRefreshAt: date(row.last_refresh_at),
      createdAt: new Date(row.created_at),
      region: row.region ?? null,
      linkKeyEncrypted: row.link_key_encrypted ?? null,
    };
  }

  /**
   * `rejected`: the provider's API refused this access token (401) although our expiry said it
   * was good (expired early, revoked and re-granted, the provider's clock): refresh now when it is
   * still the stored one. Concurrent refusals of the same token cause one refresh (the lock, and
   * the refresh only runs while the row still holds that token).
   */
  async accessTokenFor(userId: string, serviceName: string, rejected?: string): Promise<UsableToken> {
    const service = await this.catalog.apiTarget(serviceName);
    let connection = await this.load(userId, service.id);
    if (!connection) throw new ServicesError(ServicesErrorCode.NotConnected, msg('services.notConnected'));
    const refusedNow =
      rejected !== undefined &&
      connection.status === 'connected' &&
      !!connection.refreshTokenEncrypted &&
      this.vault.open(CONNECTIONS_TABLE, connection.id, 'access_token', connection.accessTokenEncrypted) === rejected;
    if (connection.status === 'connected' && connection.refreshTokenEncrypted && (refusedNow || this.refresher.dueForExpiry(connection))) {
      const outcome = await this.refresher.refresh(
        connection.id,
        refusedNow ? { reason: 'rejected', rejectedAccessSealed: connection.accessTokenEncrypted } : { reason: 'read' },
      );
      // Another process is refreshing it right now: use its result rather than refreshing twice.
      if (outcome === 'locked') await this.refresher.waitForLock(connection.id);
      connection = await this.load(userId, service.id);
      if (!connection) throw new ServicesError(ServicesErrorCode.NotConnected, msg('services.notConnected'));
    }
    const expired = !!connection.expiresAt && connection.expiresAt.getTime() <= Date.now();
    // Expired with nothing to refresh it (Battle.net): only connecting again helps. Marked here too
    // (with its event), so the card and the notice do not wait for the next sweep.
    if (connection.status === 'connected' && expired && !connection.refreshTokenEncrypted) {
      await this.refresher.expireUnrefreshable(connection.id);
      connection = { ...connection, status: 'needs_reconnect' };
    }
    if (connection.status === 'needs_reconnect') {
      throw new ServicesError(ServicesErrorCode.NeedsReconnect, msg('services.needsReconnect', { service: serviceDisplayName(serviceName) }));
    }
    if (expired) {
      throw new ServicesError(
        ServicesErrorCode.ProviderError,
        msg('services.refreshPending', { service: serviceDisplayName(serviceName), provider: serviceDisplayName(serviceName) }),
      );
    }
    const accessToken = this.vault.open(CONNECTIONS_TABLE, connection.id, 'access_token', connection.accessTokenEncrypted);
    const headers: Record<string, string> = {
      ...service.extraHeaders,
      ...(service.apiKeyHeader && service.apiKeyEncrypted ? { [service.apiKeyHeader]: this.catalog.apiKey(service)! } : {}),
    };
    if (service.linkStyle === 'hue') headers[HUE_KEY_HEADER] = await this.linkKey(userId, serviceName, connection, accessToken);
    const regional = inRegion(service, connection.region);
    return {
      accessToken,
      scheme: service.apiAuthScheme,
      headers,
      expiresAt: connection.expiresAt ?? null,
      baseUrl: regional.baseUrl,
      query: regionQuery(service, connection.region),
    };
  }

  /**
   * The connection's Hue application key; a connection whose bridge link did not happen yet
   * (made before it existed) is linked now, once, and the key sealed (decision 0041).
   */
  private async linkKey(userId: string, serviceName: string, connection: ConnectionRow, accessToken: string): Promise<string> {
    if (connection.linkKeyEncrypted) return this.vault.open(CONNECTIONS_TABLE, connection.id, 'link_key', connection.linkKeyEncrypted);
    const { service } = await this.connections.resolve(userId, await this.catalog.byName(serviceName));
    const key = (await this.connections.link(service, accessToken, userId))!;
    await this.em
      .getKysely<ExternalServicesDb>()
      .updateTable('service_connections')
      .set({ link_key_encrypted: this.vault.seal(CONNECTIONS_TABLE, connection.id, 'link_key', key), updated_at: sql<Date>`now()` })
      .where('id', '=', connection.id)
      .where('link_key_encrypted', 'is', null)
      .execute();
    return key;
  }
}
