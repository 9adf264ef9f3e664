import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { LOGIN_PROVIDERS } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import type { OidcServer } from './oidc-server.js';

export const DEV_CLIENT_ID = 'life-dev';

/**
 * Starts the development identity provider on first use when DEV_LOGIN allows it
 * (on by default in development, refused in production by the config check).
 */
@Injectable()
export class DevIdpService implements OnApplicationShutdown {
  private readonly logger = new Logger('DevLogin');
  private server: Promise<OidcServer> | undefined;
  readonly clientSecret = randomBytes(24).toString('base64url');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.devLogin.enabled;
  }

  redirectUri(provider: string): string {
    return `${this.config.appUrl}/login/${provider}/callback`;
  }

  async issuer(): Promise<string> {
    // oidc-provider (and koa under it) is loaded on the first dev login only: never in production.
    this.server ??= import('./oidc-server.js')
      .then(({ startOidcServer }) =>
        startOidcServer({
          port: this.config.devLogin.port,
          clients: [{ client_id: DEV_CLIENT_ID, client_secret: this.clientSecret, redirect_uris: LOGIN_PROVIDERS.map((p) => this.redirectUri(p)) }],
        }),
      )
      .then((server) => {
        this.logger.warn(`Development identity provider at ${server.issuer}: providers without credentials sign in there (DEV_LOGIN).`);
        return server;
      });
    return (await this.server).issuer;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.server) await (await this.server).close();
  }
}
