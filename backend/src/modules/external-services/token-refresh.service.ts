import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CreateRequestContext } from '@mikro-orm/decorators/legacy';
import { EntityManager } from '@mikro-orm/postgresql';
import type { Queue } from 'bullmq';
import { sql } from 'kysely';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { KeyRingError } from '../../core/crypto/key-ring.js';
import { KEEP_FAILED, retryFailedOlderThan } from '../../core/queue/jobs.js';
import { within } from '../../core/util/within.js';
import { CatalogService } from './catalog.service.js';
import { CONNECTIONS_TABLE, ConnectionsService } from './connections.service.js';
import { Connection } from './entities/connection.entity.js';
import type { ExternalServicesDb } from './entities/index.js';
import type { ExternalService } from './entities/external-service.entity.js';
import { ServicesError } from './external-services.errors.js';
import { REFRESH_CONNECTION, refreshJobId, TOKEN_REFRESH_QUEUE, type TokenRefreshJob } from './jobs/token-refresh.job.js';
import { ProviderClient, TokenEndpointError, type TokenAnswer, type TokenEndpointConfig } from './provider-client.js';
import { LOCK_TTL_MS, RefreshLock } from './refresh-lock.js';
import { TokenVault } from './token-vault.js';
import { OutboxService } from '../../core/outbox/outbox.service.js';
import { ConnectionNeedsReconnectEvent } from './public/events.js';
import type { ServiceRegions } from './entities/external-service.entity.js';
import { inRegion } from './regions.js';

/** What one refresh attempt did. */
export type RefreshOutcome =
  /** New tokens stored. */
  | 'refreshed'
  /** Someone else holds the connection's lock (another worker, or a read that refreshes). */
  | 'locked'
  /** After taking the lock the row was no longer due (another process just refreshed it). */
  | 'not_due'
  /** In its backoff window after failures. */
  | 'cooling_down'
  /** Disconnected meanwhile. */
  | 'gone'
  /** invalid_grant now or before: the person must connect again; never retried. */
  | 'needs_reconnect'
  /** Nothing to refresh with (GitHub, Battle.net). */
  | 'no_refresh_token'
  /** The provider failed; refresh_not_before holds the next try. */
  | 'failed'
  /** The row changed under us (a reconnect wrote new tokens): ours were dropped. */
  | 'superseded';

/** A connection as a refresh sees it, with the catalog columns of its service. */
interface RefreshTarget extends Pick<
  Connection,
  | 'id'
  | 'status'
  | 'accessTokenEncrypted'
  | 'refreshTokenEncrypted'
  | 'expiresAt'
  | 'lastRefreshAt'
  | 'createdAt'
  | 'refreshNotBefore'
  | 'refreshFailures'
  | 'clientSource'
  | 'region'
  | 'language'
> {
  userId: string;
  service: Pick<ExternalService, 'id' | 'serviceName' | 'appId' | 'appSecretEncrypted' | 'apiKeyEncrypted' | 'regions'> & TokenEndpointConfig;
}

const ENQUEUE_TIMEOUT_MS = 5000;
const BACKOFF_BASE_SECONDS = 60;
const BACKOFF_MAX_SECONDS = 6 * 3600;
const SWEEP_PAGE = 2000;
/** A refresh job that failed (database away) runs again this long after. */
const FAILED_REFRESH_RETRY_MS = 10 * 60_000;
const SWEEP_MAX_ROWS = 100_000;
/** The database's clock (the transaction's start time), for the statements below. */
const dbNow = sql<Date>`now()`;

/**
 * Token endpoint errors that mean the refresh token is dead, so only a new connection helps:
 * RFC 6749's `invalid_grant`, and GitHub's `bad_refresh_token` (answered with HTTP 200).
 */
export const GRANT_DEAD_ERRORS: ReadonlySet<string> = new Set(['invalid_grant', 'bad_refresh_token']);

/** Backoff after the n-th consecutive failure: 2, 4, 8 … minutes, at most 6 hours. */
export const backoffSeconds = (failures: number) => Math.min(BACKOFF_BASE_SECONDS * 2 ** Math.min(failures, 20), BACKOFF_MAX_SECONDS);

/** A short, secret-free reason for `last_error` and the logs. */
function reasonOf(error: unknown): string {
  if (error instanceof TokenEndpointError) return `token endpoint: ${error.oauthError}${error.status ? ` (HTTP ${error.status})` : ''}`;
  if (error instanceof ServicesError) return error.code;
  if (error instanceof KeyRingError || (error instanceof Error && /unsupported state or unable to authenticate/i.test(error.message))) {
    return 'cannot decrypt the stored tokens (is their key in ENCRYPTION_KEYS?)';
  }
  if (error instanceof Error) return error.name;
  return 'unknown error';
}

/**
 * Refreshes connections' access tokens: one refresh per connection at a time across every
 * process (a Redis lock, then a re-read of the row), rotation-aware (a new refresh token
 * replaces the old one in the same UPDATE; an answer without one keeps the old),
 * `invalid_grant` → needs reconnect and no retry, other failures → exponential backoff.
 */
@Injectable()
export class TokenRefreshService {
  private readonly logger = new Logger('TokenRefresh');

  constructor(
    private readonly em: EntityManager,
    private readonly catalog: CatalogService,
    private readonly connections: ConnectionsService,
    private readonly client: ProviderClient,
    private readonly vault: TokenVault,
    private readonly lock: RefreshLock,
    @InjectQueue(TOKEN_REFRESH_QUEUE) private readonly queue: Queue<TokenRefreshJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: OutboxService,
  ) {
    this.queue.on('error', (error) => this.logger.debug(`Queue connection: ${error.message}`));
  }

  private get marginMs(): number {
    return this.config.tokenRefresh.marginSeconds * 1000;
  }

  /**
   * Due because the access token expires soon: within the margin, or within half its
   * lifetime when that is shorter (a token that lives less than the margin is not refreshed
   * on every sweep).
   */
  dueForExpiry(connection: Pick<Connection, 'expiresAt' | 'lastRefreshAt' | 'createdAt'>, now = Date.now()): boolean {
    if (!connection.expiresAt) return false;
    const expires = connection.expiresAt.getTime();
    const issued = (connection.lastRefreshAt ?? connection.createdAt).getTime();
    const early = Math.min(this.marginMs, Math.max(0, (expires - issued) / 2));
    return expires - early <= now;
  }

  /** Due because nothing refreshed it for the keep-alive period (so an idle refresh token does not die). */
  dueForKeepAlive(connection: Pick<Connection, 'lastRefreshAt' | 'createdAt'>, now = Date.now()): boolean {
    return (connection.lastRefreshAt ?? connection.createdAt).getTime() < now - this.config.tokenRefresh.keepAliveDays * 86_400_000;
  }

  /** Refreshes one connection if it is (still) due. Safe to call from any number of processes at once. */
  @CreateRequestContext()
  async refresh(
    connectionId: string,
    options: { reason?: 'sweep' | 'read' } | { reason: 'rejected'; rejectedAccessSealed: string } = {},
  ): Promise<RefreshOutcome> {
    const held = await this.lock.acquire(connectionId);
    if (!held) return 'locked';
    try {
      return await this.refreshHolding(connectionId, options.reason ?? 'sweep', 'rejectedAccessSealed' in options ? options.rejectedAccessSealed : undefined);
    } finally {
      await this.lock.release(held).catch((error: unknown) => this.logger.warn(`Could not release the lock of ${connectionId}: ${reasonOf(error)}`));
    }
  }

  /** The connection and the catalog columns a refresh needs, in one query (no entities: this runs 10,000s of times). */
  private async load(connectionId: string): Promise<RefreshTarget | undefined> {
    const row = await this.em
      .getKysely<ExternalServicesDb>()
      .selectFrom('service_connections as c')
      .innerJoin('external_services as s', 's.id', 'c.service_id')
      .select([
        'c.id',
        'c.user_id',
        'c.status',
        'c.access_token_encrypted',
        'c.refresh_token_encrypted',
        'c.expires_at',
        'c.last_refresh_at',
        'c.created_at',
        'c.refresh_not_before',
        'c.refresh_failures',
        'c.client_source',
        'c.region',
        'c.language',
        's.id as service_id',
        's.regions',
        's.service_name',
        's.app_id',
        's.app_secret_encrypted',
        's.token_url',
        's.token_auth',
        's.token_body',
        's.extra_headers',
        's.api_key_header',
        's.api_key_encrypted',
      ])
      .where('c.id', '=', connectionId)
      .executeTakeFirst();
    if (!row) return undefined;
    // Timestamps arrive as ISO strings (MikroORM's pg type parsers), whatever the inferred type says.
    const date = (value: Date | string | null | undefined) => (value ? new Date(value) : null);
    return {
      id: row.id,
      userId: row.user_id,
      status: row.status,
      accessTokenEncrypted: row.access_token_encrypted,
      refreshTokenEncrypted: row.refresh_token_encrypted,
      expiresAt: date(row.expires_at),
      lastRefreshAt: date(row.last_refresh_at),
      createdAt: new Date(row.created_at),
      refreshNotBefore: date(row.refresh_not_before),
      refreshFailures: Number(row.refresh_failures),
      clientSource: row.client_source,
      region: row.region ?? null,
      language: row.language ?? null,
      service: {
        id: row.service_id,
        serviceName: row.service_name,
        appId: row.app_id,
        appSecretEncrypted: row.app_secret_encrypted,
        tokenUrl: row.token_url,
        tokenAuth: row.token_auth,
        tokenBody: row.token_body,
        extraHeaders: typeof row.extra_headers === 'string' ? (JSON.parse(row.extra_headers) as Record<string, string>) : row.extra_headers,
        apiKeyHeader: row.api_key_header,
        apiKeyEncrypted: row.api_key_encrypted,
        regions: typeof row.regions === 'string' ? (JSON.parse(row.regions) as ServiceRegions) : (row.regions ?? null),
      },
    };
  }

  private async refreshHolding(connectionId: string, reason: 'sweep' | 'read' | 'rejected', rejectedAccessSealed?: string): Promise<RefreshOutcome> {
    // Re-read under the lock: another worker may have refreshed it a moment ago.
    const connection = await this.load(connectionId);
    if (!connection) return 'gone';
    if (connection.status !== 'connected') return 'needs_reconnect';
    if (!connection.refreshTokenEncrypted) return 'no_refresh_token';
    const now = Date.now();
    if (connection.refreshNotBefore && connection.refreshNotBefore.getTime() > now) return 'cooling_down';
    // A token the provider refused is due while the row still holds it (not once someone replaced it).
    const due =
      this.dueForExpiry(connection, now) ||
      (reason === 'sweep' && this.dueForKeepAlive(connection, now)) ||
      (reason === 'rejected' && connection.accessTokenEncrypted === rejectedAccessSealed);
    if (!due) return 'not_due';

    const { service: row } = connection;
    const sealedRefresh = connection.refreshTokenEncrypted;
    let tokens: TokenAnswer;
    try {
      const refreshToken = this.vault.open(CONNECTIONS_TABLE, connection.id, 'refresh_token', sealedRefresh);
      const resolved = await this.connections.resolve(connection.userId, row, connection.clientSource);
      const client = resolved.client;
      // A regional service refreshes at its region's token endpoint (decision 0042).
      const service = inRegion(resolved.service, connection.region);
      const apiKey = this.catalog.apiKey(service);
      tokens = await this.client.token(service, client, { grant_type: 'refresh_token', refresh_token: refreshToken }, apiKey);
    } catch (error) {
      const grantDead = error instanceof TokenEndpointError && GRANT_DEAD_ERRORS.has(error.oauthError);
      // The person's own app credentials are gone: only a new connection can fix that.
      const ownCredentialsGone = error instanceof ServicesError && connection.clientSource === 'user';
      if (grantDead || ownCredentialsGone) return this.markNeedsReconnect(connection, sealedRefresh, reasonOf(error));
      return this.recordFailure(connection, reasonOf(error));
    }

    const accessSealed = this.vault.seal(CONNECTIONS_TABLE, connection.id, 'access_token', tokens.accessToken);
    const refreshSealed = tokens.refreshToken ? this.vault.seal(CONNECTIONS_TABLE, connection.id, 'refresh_token', tokens.refreshToken) : null;
    const expiresAt = tokens.expiresIn ? new Date(Date.now() + tokens.expiresIn * 1000) : null;
    // One statement: the new access token, the new refresh token if one came (else the old one
    // stays), the expiry. Only if the row still holds the refresh token we used: a reconnect in
    // between wrote a newer grant, which must win.
    const updated = await this.em
      .getKysely<ExternalServicesDb>()
      .updateTable('service_connections')
      .set((eb) => ({
        access_token_encrypted: accessSealed,
        refresh_token_encrypted: eb.fn.coalesce(eb.val(refreshSealed), eb.ref('refresh_token_encrypted')),
        expires_at: expiresAt,
        scope: eb.fn.coalesce(eb.val(tokens.scope?.slice(0, 1000) ?? null), eb.ref('scope')),
        last_refresh_at: dbNow,
        refresh_failures: 0,
        refresh_not_before: null,
        last_error: null,
        updated_at: dbNow,
      }))
      .where('id', '=', connection.id)
      .where('refresh_token_encrypted', '=', sealedRefresh)
      .where('status', '=', 'connected')
      .returning('id')
      .execute();
    if (updated.length === 0) {
      this.logger.warn(`Connection ${connection.id} (${row.serviceName}) changed during its refresh; kept the newer tokens`);
      return 'superseded';
    }
    return 'refreshed';
  }

  private async markNeedsReconnect(connection: RefreshTarget, sealedRefresh: string, reason: string): Promise<RefreshOutcome> {
    // The status change and its durable event commit together (transactional outbox).
    const staged = await this.em.transactional(async (tx) => {
      const changed = await tx
        .getKysely<ExternalServicesDb>()
        .updateTable('service_connections')
        .set((eb) => ({
          status: 'needs_reconnect',
          refresh_failures: eb('refresh_failures', '+', 1),
          last_error: reason.slice(0, 300),
          updated_at: dbNow,
        }))
        .where('id', '=', connection.id)
        .where('refresh_token_encrypted', '=', sealedRefresh)
        .where('status', '=', 'connected')
        .returning('id')
        .execute();
      if (changed.length === 0) return [];
      return [
        this.outbox.stage(
          tx,
          new ConnectionNeedsReconnectEvent(randomUUID(), connection.id, connection.userId, connection.service.serviceName, connection.language ?? null),
        ),
      ];
    });
    await this.outbox.relay(staged);
    this.logger.warn(`Connection ${connection.id} (${connection.service.serviceName}) needs to be connected again: ${reason}`);
    return 'needs_reconnect';
  }

  /**
   * Connections whose access token expired with nothing to refresh it (Battle.net: 24 h tokens and
   * no refresh token) need connecting again: marked `needs_reconnect` with their durable event, in
   * one transaction, like a refused refresh. All such connections (the sweep), or one (a read that
   * found it). Answers how many changed.
   */
  async expireUnrefreshable(connectionId?: string): Promise<number> {
    const staged = await this.em.transactional(async (tx) => {
      const db = tx.getKysely<ExternalServicesDb>();
      let update = db
        .updateTable('service_connections')
        .set({ status: 'needs_reconnect', last_error: 'access token expired; the provider gives no refresh token', updated_at: dbNow })
        .where('status', '=', 'connected')
        .where('refresh_token_encrypted', 'is', null)
        .where('expires_at', '<=', dbNow);
      if (connectionId) update = update.where('id', '=', connectionId);
      const changed = await update.returning(['id', 'user_id', 'service_id', 'language']).execute();
      if (changed.length === 0) return [];
      const names = new Map(
        (
          await db
            .selectFrom('external_services')
            .select(['id', 'service_name'])
            .where(
              'id',
              'in',
              changed.map((row) => row.service_id),
            )
            .execute()
        ).map((row) => [row.id, row.service_name]),
      );
      return changed.map((row) =>
        this.outbox.stage(tx, new ConnectionNeedsReconnectEvent(randomUUID(), row.id, row.user_id, names.get(row.service_id) ?? '', row.language ?? null)),
      );
    });
    await this.outbox.relay(staged);
    if (staged.length > 0) this.logger.warn(`${staged.length} connection(s) expired with no refresh token: they need to be connected again`);
    return staged.length;
  }

  private async recordFailure(connection: RefreshTarget, reason: string): Promise<RefreshOutcome> {
    const failures = connection.refreshFailures + 1;
    const delay = backoffSeconds(failures);
    await this.em
      .getKysely<ExternalServicesDb>()
      .updateTable('service_connections')
      .set((eb) => ({
        refresh_failures: eb('refresh_failures', '+', 1),
        refresh_not_before: sql<Date>`now() + ${delay} * interval '1 second'`,
        last_error: reason.slice(0, 300),
        updated_at: dbNow,
      }))
      .where('id', '=', connection.id)
      .execute();
    this.logger.warn(
      `Refresh of connection ${connection.id} (${connection.service.serviceName}) failed (${failures} in a row): ${reason}; next try in ${delay} s`,
    );
    return 'failed';
  }

  /**
   * Connections to refresh now: a refresh token, connected, not cooling down, and either
   * expiring soon (the same rule as dueForExpiry) or idle for the keep-alive period.
   */
  async dueConnectionIds(limit = SWEEP_MAX_ROWS): Promise<string[]> {
    const db = this.em.fork().getKysely<ExternalServicesDb>();
    const ids: string[] = [];
    let after = '00000000-0000-0000-0000-000000000000';
    const margin = sql<string>`${this.config.tokenRefresh.marginSeconds}::int * interval '1 second'`;
    const keepAlive = sql<string>`${this.config.tokenRefresh.keepAliveDays}::int * interval '1 day'`;
    while (ids.length < limit) {
      const rows = await db
        .selectFrom('service_connections')
        .select('id')
        .where('id', '>', after)
        .where('status', '=', 'connected')
        .where('refresh_token_encrypted', 'is not', null)
        .where((eb) => eb.or([eb('refresh_not_before', 'is', null), eb('refresh_not_before', '<=', dbNow)]))
        // Expiring soon (the same rule as dueForExpiry), or idle for the keep-alive period.
        .where((eb) => {
          const expires = eb.ref('expires_at');
          const issued = eb.fn.coalesce('last_refresh_at', 'created_at');
          return eb.or([
            eb.and([
              eb(expires, '<', sql<Date>`now() + ${margin}`),
              eb(sql<Date>`${expires} - least(${margin}, greatest(${expires} - ${issued}, interval '0') / 2)`, '<=', dbNow),
            ]),
            eb(issued, '<', sql<Date>`now() - ${keepAlive}`),
          ]);
        })
        .orderBy('id')
        .limit(Math.min(SWEEP_PAGE, limit - ids.length))
        .execute();
      ids.push(...rows.map((row) => row.id));
      if (rows.length < SWEEP_PAGE) break;
      after = rows[rows.length - 1]!.id;
    }
    return ids;
  }

  /**
   * Queues refreshes; the job id is per connection, so a connection already waiting is not
   * queued twice. Never hangs on a Redis outage (the next sweep tries again).
   */
  async enqueue(connectionIds: string[]): Promise<number> {
    let queued = 0;
    for (let start = 0; start < connectionIds.length; start += 1000) {
      const chunk = connectionIds.slice(start, start + 1000);
      await within(
        this.queue.addBulk(
          chunk.map((connectionId) => ({
            name: REFRESH_CONNECTION,
            data: { connectionId },
            // Retries only cover unexpected errors (database away); provider failures are
            // recorded on the row and retried by the sweeper after their backoff.
            opts: {
              jobId: refreshJobId(connectionId),
              attempts: 3,
              backoff: { type: 'exponential', delay: 5000 },
              removeOnComplete: true,
              removeOnFail: KEEP_FAILED,
            },
          })),
        ),
        ENQUEUE_TIMEOUT_MS,
      );
      queued += chunk.length;
    }
    return queued;
  }

  /**
   * The sweep: find every due connection and queue it. While jobs of an earlier sweep still
   * wait, it does nothing: they go first, and adding them again would only cost Redis work
   * (a burst of due connections is swept once, not once per sweep per worker).
   */
  async sweep(): Promise<number> {
    // A failed job keeps its connection's id: after a while it runs again (Salud showed it meanwhile).
    const retried = await within(retryFailedOlderThan(this.queue, FAILED_REFRESH_RETRY_MS), ENQUEUE_TIMEOUT_MS);
    await this.expireUnrefreshable();
    if ((await within(this.queue.count(), ENQUEUE_TIMEOUT_MS)) > 0) return retried;
    const ids = await this.dueConnectionIds();
    return ids.length === 0 ? 0 : this.enqueue(ids);
  }

  /**
   * Waits (bounded) until nobody holds the connection's lock: a read that finds another process
   * refreshing waits for its result instead of refreshing again.
   */
  async waitForLock(connectionId: string, timeoutMs = LOCK_TTL_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && (await this.lock.isHeld(connectionId))) await sleep(50);
  }
}
