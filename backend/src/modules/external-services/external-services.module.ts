import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { runsWorkers, type ProcessRole } from '../../core/queue/process-role.js';
import { CatalogService } from './catalog.service.js';
import { ConnectionsService } from './connections.service.js';
import { CredentialsService } from './credentials.service.js';
import { DevProviders } from './dev-providers.service.js';
import { ExternalServicesController } from './external-services.controller.js';
import { TOKEN_REFRESH_QUEUE, VAULT_QUEUE } from './jobs/token-refresh.job.js';
import { TokenRefreshProcessor } from './jobs/token-refresh.processor.js';
import { TokenRefreshSweeper } from './jobs/token-refresh.sweeper.js';
import { VaultKeysProcessor } from './jobs/vault-keys.processor.js';
import { CheckCatalogServiceHandler, UpdateCatalogServiceHandler } from './handlers/admin.handlers.js';
import { ServiceCheckService } from './service-check.service.js';
import { CONNECTIONS_HANDLERS } from './handlers/connections.handlers.js';
import { ConnectionsErasureHandler } from './handlers/erasure.handler.js';
import { ConnectionsPersonalDataHandler } from './handlers/personal-data.handler.js';
import { WORKER_HANDLERS } from './handlers/workers.handlers.js';
import { ProviderClient } from './provider-client.js';
import { PersonConnectionsHandler } from './queries/person-connections.handler.js';
import { RefreshFailuresHandler } from './queries/refresh-failures.handler.js';
import { ServiceAccessTokenHandler, ServiceApiBaseHandler } from './queries/service-api.handlers.js';
import { RefreshLock } from './refresh-lock.js';
import { TokenAccess } from './token-access.js';
import { TokenRefreshService } from './token-refresh.service.js';
import { TokenVault } from './token-vault.js';
import { VaultRotationService } from './vault-rotation.service.js';
import { CatalogNamesHandler } from './queries/catalog-names.handler.js';

/**
 * The service catalog, people's connections and credentials, and the token vault. Web roles
 * serve HTTP; worker roles refresh tokens (`token-refresh` queue + sweeper) and run key
 * rotations (`vault-keys` queue). Every role can refresh on read (TokenAccess).
 */
@Module({})
export class ExternalServicesModule {
  static forRoot(role: ProcessRole): DynamicModule {
    return {
      module: ExternalServicesModule,
      imports: [BullModule.registerQueue({ name: TOKEN_REFRESH_QUEUE }, { name: VAULT_QUEUE })],
      controllers: role === 'worker' ? [] : [ExternalServicesController],
      providers: [
        TokenVault,
        DevProviders,
        ProviderClient,
        CatalogService,
        CredentialsService,
        ConnectionsService,
        RefreshLock,
        TokenRefreshService,
        TokenAccess,
        VaultRotationService,
        PersonConnectionsHandler,
        RefreshFailuresHandler,
        CatalogNamesHandler,
        ServiceApiBaseHandler,
        ServiceAccessTokenHandler,
        ConnectionsErasureHandler,
        UpdateCatalogServiceHandler,
        ...(role === 'worker' ? [] : [ServiceCheckService, CheckCatalogServiceHandler]),
        ConnectionsPersonalDataHandler,
        ...CONNECTIONS_HANDLERS,
        ...(runsWorkers(role) ? [TokenRefreshProcessor, TokenRefreshSweeper, VaultKeysProcessor, ...WORKER_HANDLERS] : []),
      ],
      exports: [CatalogService, ConnectionsService, TokenVault, TokenAccess, TokenRefreshService, VaultRotationService],
    };
  }
}
