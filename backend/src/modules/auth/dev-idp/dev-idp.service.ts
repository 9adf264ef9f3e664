import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { LOGIN_PROVIDERS } from '@life/contracts';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { REDIS } from '../../../core/redis/redis.module.js';
import { SharedDevServer } from '../../../core/util/shared-dev-server.js';

export const DEV_CLIENT_ID = 'life-dev';

/** Where the installation's development identity provider answers, and the secret of Life's client there. */
export interface DevIdpEndpoint {
  issuer: string;
  clientSecret: string;
}

/**
 * The development identity provider, started on first use when DEV_LOGIN allows it (on by
 * default in development, refused in production by the config check). One for the whole
 * installation (`SharedDevServer`): a sign-in that starts on one web process and comes back to
 * another redeems its code at the provider that issued it.
 */
@Injectable()
export class DevIdpService implements OnApplicationShutdown {
  private readonly logger = new Logger('DevLogin');
  private readonly shared: SharedDevServer<DevIdpEndpoint>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) redis: Redis,
  ) {
    this.shared = new SharedDevServer(
      redis,
      `${config.queuePrefix}:dev-idp`,
      () => this.start(),
      (endpoint) => `${endpoint.issuer}/.well-known/openid-configuration`,
    );
  }

  get enabled(): boolean {
    return this.config.devLogin.enabled;
  }

  redirectUri(provider: string): string {
    return `${this.config.appUrl}/login/${provider}/callback`;
  }

  /** The installation's provider and Life's client secret there. */
  endpoint(): Promise<DevIdpEndpoint> {
    return this.shared.get();
  }

  private async start() {
    const clientSecret = randomBytes(24).toString('base64url');
    // oidc-provider (and koa under it) is loaded on the first dev login only: never in production.
    const { startOidcServer } = await import('./oidc-server.js');
    const server = await startOidcServer({
      port: this.config.devLogin.port,
      clients: [{ client_id: DEV_CLIENT_ID, client_secret: clientSecret, redirect_uris: LOGIN_PROVIDERS.map((p) => this.redirectUri(p)) }],
    });
    this.logger.warn(`Development identity provider at ${server.issuer}: providers without credentials sign in there (DEV_LOGIN).`);
    return { value: { issuer: server.issuer, clientSecret }, close: () => server.close() };
  }

  onApplicationShutdown(): Promise<void> {
    return this.shared.close();
  }
}
