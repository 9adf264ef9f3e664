import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ServiceStandIns } from '@life/test-support/standins/services';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../../core/redis/redis.module.js';
import { SharedDevServer } from '../../core/util/shared-dev-server.js';
import type { ExternalService } from './entities/external-service.entity.js';
import { TokenVault } from './token-vault.js';

type StandInsModule = typeof import('@life/test-support/standins/services');
type StandInRows = ServiceStandIns['rows'];

/** The catalog columns a development provider stands in for: its app, its endpoints and its dialect. */
type Overlay = Pick<
  ExternalService,
  | 'appId'
  | 'appSecretEncrypted'
  | 'authUrl'
  | 'tokenUrl'
  | 'baseUrl'
  | 'userUrl'
  | 'tokenAuth'
  | 'tokenBody'
  | 'sendScope'
  | 'pkce'
  | 'extraHeaders'
  | 'apiKeyHeader'
  | 'apiKeyEncrypted'
  | 'revokeUrl'
  | 'revokeStyle'
  | 'accountUrl'
  | 'regions'
>;

const TABLE = 'external_services';

/**
 * The development providers (DEV_SERVICES, decision 0020): in development, a catalog service with
 * no app of its own (no `app_id`) is served by a local stand-in of it — the same servers the tests
 * use (`@life/test-support/standins/services`) — started on loopback on first use. The row is then
 * read as if an admin had configured it with that stand-in, so the normal connect, refresh,
 * revocation and proxy code runs unchanged. Nothing is written to the catalog. The stand-ins'
 * module is imported only here and only when enabled: production (refused by the config check)
 * never loads it, and the production image does not even contain it. One set for the whole
 * installation (`SharedDevServer`): a connection started on one web process and coming back to
 * another redeems its code at the stand-in that issued it.
 */
@Injectable()
export class DevProviders implements OnApplicationShutdown {
  private readonly logger = new Logger('DevServices');
  private module: Promise<StandInsModule | null> | undefined;
  private readonly shared: SharedDevServer<StandInRows>;
  /** `${id}:${name}:${token_url}` → the sealed overlay (the secrets are sealed for that row, as the vault expects). */
  private readonly overlays = new Map<string, Overlay>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly vault: TokenVault,
    @Inject(REDIS) redis: Redis,
  ) {
    this.shared = new SharedDevServer(
      redis,
      `${config.queuePrefix}:dev-services`,
      () => this.start(),
      (rows) => Object.values(rows)[0]?.token_url ?? 'http://127.0.0.1:9/',
    );
  }

  get enabled(): boolean {
    return this.config.devServices.enabled;
  }

  private load(): Promise<StandInsModule | null> {
    this.module ??= import('@life/test-support/standins/services').catch((error: unknown) => {
      this.logger.warn(
        `DEV_SERVICES is on but the stand-ins could not be loaded (${error instanceof Error ? error.message : String(error)}): install the development dependencies (npm install).`,
      );
      return null;
    });
    return this.module;
  }

  private async start(): Promise<{ value: StandInRows; close(): Promise<void> }> {
    const module = await this.load();
    if (!module) return { value: {}, close: async () => undefined };
    // Stand-ins forget their tokens when the app stops: after a restart they accept the tokens
    // the app kept, so existing development connections keep working.
    const overrides = Object.fromEntries(
      Object.keys(module.CATALOG_FAMILY_ROWS).map((family) => [family, { acceptAnyRefreshToken: true, acceptAnyAccessToken: true, recordCalls: false }]),
    );
    const servers = await module.startServiceStandIns({ rowsByFamily: module.CATALOG_FAMILY_ROWS, overrides });
    this.logger.warn(
      `Development providers started on 127.0.0.1 for ${Object.keys(servers.rows).length} services without credentials (DEV_SERVICES): they are local stand-ins, not the real services.`,
    );
    return { value: servers.rows, close: () => servers.close() };
  }

  /** Whether a development provider stands in for this service (reads the list, starts nothing). */
  async serves(serviceName: string): Promise<boolean> {
    if (!this.enabled) return false;
    const module = await this.load();
    return !!module && Object.values<readonly string[]>(module.CATALOG_FAMILY_ROWS).some((rows) => rows.includes(serviceName));
  }

  /**
   * The row as the connect path should read it: unchanged when it has an app of its own or no
   * development provider serves it; otherwise with the development provider's app, endpoints and
   * dialect (scopes, extra authorize parameters and the API's auth scheme stay the row's own).
   */
  async overlay<T extends Pick<ExternalService, 'id' | 'serviceName' | 'appId'>>(service: T): Promise<T> {
    if (!this.enabled || service.appId || !(await this.serves(service.serviceName))) return service;
    const row = (await this.shared.get())[service.serviceName];
    if (!row) return service;
    const key = `${service.id}:${service.serviceName}:${row.token_url}`;
    let overlay = this.overlays.get(key);
    if (!overlay) {
      overlay = {
        appId: row.app_id,
        appSecretEncrypted: this.vault.seal(TABLE, service.id, 'app_secret', row.app_secret),
        authUrl: row.auth_url,
        tokenUrl: row.token_url,
        baseUrl: row.base_url,
        userUrl: row.user_url || null,
        tokenAuth: row.token_auth,
        tokenBody: row.token_body,
        sendScope: row.send_scope,
        pkce: row.pkce,
        extraHeaders: row.extra_headers,
        apiKeyHeader: row.api_key_header,
        apiKeyEncrypted: row.api_key ? this.vault.seal(TABLE, service.id, 'api_key', row.api_key) : null,
        revokeUrl: row.revoke_url || null,
        revokeStyle: row.revoke_style,
        accountUrl: row.account_url,
        // The stand-in's regions (all on its own host), never the real region hosts of the row.
        regions: row.region_settings ?? null,
      };
      this.overlays.set(key, overlay);
    }
    return { ...service, ...overlay };
  }

  onApplicationShutdown(): Promise<void> {
    return this.shared.close();
  }
}
