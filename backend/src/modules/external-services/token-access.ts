import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { serviceDisplayName } from '@life/contracts';
import { CatalogService } from './catalog.service.js';
import { CONNECTIONS_TABLE } from './connections.service.js';
import type { Connection } from './entities/connection.entity.js';
import type { ExternalServicesDb } from './entities/index.js';
import { ServicesError, ServicesErrorCode } from './external-services.errors.js';
import { TokenRefreshService } from './token-refresh.service.js';
import type { UsableToken } from './public/queries.js';
import { TokenVault } from './token-vault.js';
import { msg } from '../../core/i18n/messages.js';

export type { UsableToken } from './public/queries.js';

/** The columns of a person's connection a provider call needs, as a plain row. */
type ConnectionRow = Pick<Connection, 'id' | 'status' | 'accessTokenEncrypted' | 'refreshTokenEncrypted' | 'expiresAt' | 'lastRefreshAt' | 'createdAt'>;

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
  ) {}

  private async load(userId: string, serviceId: string): Promise<ConnectionRow | undefined> {
    const row = await this.em
      .getKysely<ExternalServicesDb>()
      .selectFrom('service_connections')
      .select(['id', 'status', 'access_token_encrypted', 'refresh_token_encrypted', 'expires_at', 'last_refresh_at', 'created_at'])
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
    if (connection.status === 'needs_reconnect') {
      throw new ServicesError(ServicesErrorCode.NeedsReconnect, `${serviceName} pide que vuelvas a conectar tu cuenta (pulsa Reconectar).`);
    }
    if (connection.expiresAt && connection.expiresAt.getTime() <= Date.now()) {
      throw new ServicesError(
        ServicesErrorCode.ProviderError,
        msg('services.refreshPending', { service: serviceDisplayName(serviceName), provider: serviceDisplayName(serviceName) }),
      );
    }
    return {
      accessToken: this.vault.open(CONNECTIONS_TABLE, connection.id, 'access_token', connection.accessTokenEncrypted),
      scheme: service.apiAuthScheme,
      headers: {
        ...service.extraHeaders,
        ...(service.apiKeyHeader && service.apiKeyEncrypted ? { [service.apiKeyHeader]: this.catalog.apiKey(service)! } : {}),
      },
      expiresAt: connection.expiresAt ?? null,
    };
  }
}
