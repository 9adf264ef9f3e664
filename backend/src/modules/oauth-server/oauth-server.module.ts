import { Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { runsWorkers, type ProcessRole } from '../../core/queue/process-role.js';
import { AppResourcesService } from './app-resources.service.js';
import { AppTokenStrategy } from './app-token.strategy.js';
import { OAUTH_ADMIN_HANDLERS } from './handlers/admin.handlers.js';
import { OAUTH_APPS_HANDLERS } from './handlers/apps.handlers.js';
import { AppGrantsErasureHandler } from './handlers/erasure.handler.js';
import { AppsPersonalDataHandler } from './handlers/personal-data.handler.js';
import { OAUTH_PROTOCOL_HANDLERS } from './handlers/protocol.handlers.js';
import { AppApiController } from './app-api.controller.js';
import { AppTokenGuard } from './app-token.guard.js';
import { AuthorizationService } from './authorization.service.js';
import { ClientCache } from './client-cache.js';
import { ClientsService } from './clients.service.js';
import { ExpiredTokensSweeper } from './expired-tokens.sweeper.js';
import { RefreshGraceSweeper } from './refresh-grace.sweeper.js';
import { GrantsController } from './grants.controller.js';
import { LogoutService } from './logout.service.js';
import { OAuthController } from './oauth.controller.js';
import { ProtocolService } from './protocol.service.js';
import { ProxyService } from './proxy.service.js';
import { PushedRequests } from './pushed-requests.js';
import { DPoPVerifier } from './dpop.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokenEndpointLimits } from './token-endpoint-limits.service.js';
import { TokenEndpointService } from './token-endpoint.service.js';
import { TokenStore } from './token-store.service.js';
import { AppNamesHandler } from './handlers/app-names.handler.js';
import { DEVELOPER_APPS_HANDLERS } from './handlers/developer-apps.handlers.js';
import { DeveloperAppsController } from './developer-apps.controller.js';
import { DeveloperAppsService } from './developer-apps.service.js';

/**
 * The OAuth 2.1 / OpenID Connect authorization server for third-party apps: clients,
 * consent, tokens, discovery, the resource API and the proxy to connected services.
 */
@Module({})
export class OAuthServerModule implements OnApplicationBootstrap {
  constructor(private readonly keys: SigningKeysService) {}

  static forRoot(role: ProcessRole): DynamicModule {
    const web = role !== 'worker';
    return {
      module: OAuthServerModule,
      controllers: web ? [OAuthController, AppApiController, GrantsController, DeveloperAppsController] : [],
      providers: [
        ClientCache,
        ClientsService,
        DeveloperAppsService,
        TokenStore,
        PushedRequests,
        DPoPVerifier,
        SigningKeysService,
        AuthorizationService,
        TokenEndpointService,
        TokenEndpointLimits,
        ProtocolService,
        LogoutService,
        ProxyService,
        AppResourcesService,
        AppGrantsErasureHandler,
        ...OAUTH_ADMIN_HANDLERS,
        ...OAUTH_PROTOCOL_HANDLERS,
        ...OAUTH_APPS_HANDLERS,
        ...DEVELOPER_APPS_HANDLERS,
        AppsPersonalDataHandler,
        AppNamesHandler,
        AppTokenGuard,
        AppTokenStrategy,
        ...(runsWorkers(role) ? [ExpiredTokensSweeper, RefreshGraceSweeper] : []),
      ],
      exports: [ClientsService, SigningKeysService, AuthorizationService],
    };
  }

  /** The first start generates the ID token signing key (kept in the database). */
  async onApplicationBootstrap(): Promise<void> {
    await this.keys.ensureKey();
  }
}
