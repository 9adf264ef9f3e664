import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ClientType } from '@life/contracts';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../../core/redis/redis.module.js';
import type { OAuthServerDb } from './entities/index.js';

/** What the endpoints need of an active client (a plain object: no entity, no unit of work). */
export interface ClientRecord {
  id: string;
  clientId: string;
  name: string;
  clientType: ClientType;
  clientSecretHash: string | null;
  redirectUris: string[];
  allowedScopes: string[];
  /** RFC 9126: a plain authorization request is refused; only a pushed one (decision 0035). */
  requirePar: boolean;
  /** The person who registered it (decision 0037), or null for a company app. */
  developerId: string | null;
  verified: boolean;
  logoUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
}

/** How often each process compares the table's fingerprint, in case a pub/sub message was lost. */
export const CLIENT_POLL_MS = 400;

/**
 * Active clients by public id, kept in the process (decision 0017). Every change made through
 * ClientsService forgets the client here at once and publishes its id on Redis, so every other
 * process forgets it too; each process also compares a fingerprint of the whole table (row count
 * and a hash of every column the endpoints read) every {@link CLIENT_POLL_MS} ms and drops
 * everything when it moved. So a rotated secret or a deactivated client stops working at once in
 * the process that changed it and within a second everywhere, even with Redis down or a change
 * made by hand in SQL. Unknown ids are not cached (no memory for an attacker to fill).
 */
@Injectable()
export class ClientCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ClientCache.name);
  private readonly clients = new Map<string, ClientRecord>();
  /** Lookups in flight, shared by concurrent requests for one client. */
  private readonly loading = new Map<string, Promise<ClientRecord | null>>();
  /** Bumped by every invalidation: a lookup that started before one must not fill the cache. */
  private generation = 0;
  private fingerprint: string | undefined;
  private subscriber: Redis | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private readonly channel: string;

  constructor(
    private readonly em: EntityManager,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.channel = `${config.queuePrefix}:oauth-clients:changed`;
  }

  async onModuleInit(): Promise<void> {
    const subscriber = this.redis.duplicate({ lazyConnect: true, commandTimeout: undefined });
    subscriber.on('error', () => undefined);
    // Every (re)connection may have missed messages: forget everything.
    subscriber.on('ready', () => this.clear());
    subscriber.on('message', (_channel: string, clientId: string) => this.forget(clientId));
    this.subscriber = subscriber;
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.channel);
    } catch (error) {
      this.logger.warn({ err: error }, 'No Redis subscription for client changes: the table fingerprint alone keeps the cache fresh');
    }
    this.timer = setInterval(() => void this.poll(), CLIENT_POLL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.subscriber?.disconnect();
  }

  /** The active client with this public id, or null (from the cache, or one query shared by concurrent callers). */
  get(clientId: string): Promise<ClientRecord | null> {
    const cached = this.clients.get(clientId);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(clientId);
    if (!pending) {
      const generation = this.generation;
      pending = this.load(clientId).then(
        (record) => {
          if (this.loading.get(clientId) === pending) this.loading.delete(clientId);
          if (record && generation === this.generation) this.clients.set(clientId, record);
          return record;
        },
        (error: unknown) => {
          if (this.loading.get(clientId) === pending) this.loading.delete(clientId);
          throw error;
        },
      );
      this.loading.set(clientId, pending);
    }
    return pending;
  }

  /** After a change made in this process: forgotten here now, in the other processes when they hear it. */
  async changed(clientId: string): Promise<void> {
    this.forget(clientId);
    await this.redis.publish(this.channel, clientId).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'Could not publish a client change: other processes see it at their next fingerprint check');
    });
  }

  private forget(clientId: string): void {
    this.generation++;
    this.clients.delete(clientId);
    this.loading.delete(clientId);
  }

  private clear(): void {
    this.generation++;
    this.clients.clear();
    this.loading.clear();
  }

  private async load(clientId: string): Promise<ClientRecord | null> {
    const row = await this.em
      .getKysely<OAuthServerDb>()
      .selectFrom('oauth_clients')
      .select([
        'id',
        'client_id',
        'name',
        'client_type',
        'client_secret_hash',
        'redirect_uris',
        'allowed_scopes',
        'developer_id',
        'verified',
        'logo_uri',
        'policy_uri',
        'tos_uri',
        'require_pushed_authorization_requests',
      ])
      .where('client_id', '=', clientId)
      .where('active', '=', true)
      .where('suspended', '=', false)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      clientId: row.client_id,
      name: row.name,
      clientType: row.client_type as ClientType,
      clientSecretHash: row.client_secret_hash ?? null,
      redirectUris: row.redirect_uris,
      allowedScopes: row.allowed_scopes,
      requirePar: row.require_pushed_authorization_requests,
      developerId: row.developer_id ?? null,
      verified: row.verified,
      logoUri: row.logo_uri ?? null,
      policyUri: row.policy_uri ?? null,
      tosUri: row.tos_uri ?? null,
    };
  }

  /** Drops everything when the table changed in a way this process was not told about. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const row = await this.em
        .getKysely<OAuthServerDb>()
        .selectFrom('oauth_clients')
        .select(
          sql<string>`count(*) || ':' || coalesce(sum(hashtext(concat_ws('|', id, client_id, client_type, client_secret_hash, redirect_uris, allowed_scopes, name, active, suspended, verified, developer_id, logo_uri, policy_uri, tos_uri, require_pushed_authorization_requests))::bigint), 0)`.as(
            'fingerprint',
          ),
        )
        .executeTakeFirst();
      const fingerprint = row?.fingerprint;
      if (fingerprint !== this.fingerprint) {
        this.clear();
        this.fingerprint = fingerprint;
      }
    } catch {
      // The database is away: so is every token request. Nothing cached can be trusted for long.
      this.clear();
    } finally {
      this.polling = false;
    }
  }
}
