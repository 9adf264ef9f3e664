import { Module, type DynamicModule } from '@nestjs/common';
import type { ProcessRole } from '../../core/queue/process-role.js';
import { CatalogService } from './catalog.service.js';
import { ConnectionsService } from './connections.service.js';
import { CredentialsService } from './credentials.service.js';
import { ExternalServicesController } from './external-services.controller.js';
import { ProviderClient } from './provider-client.js';
import { TokenVault } from './token-vault.js';

/** The service catalog, people's connections and credentials, and the token vault. */
@Module({})
export class ExternalServicesModule {
  static forRoot(role: ProcessRole): DynamicModule {
    return {
      module: ExternalServicesModule,
      controllers: role === 'worker' ? [] : [ExternalServicesController],
      providers: [TokenVault, ProviderClient, CatalogService, CredentialsService, ConnectionsService],
      exports: [CatalogService, ConnectionsService, TokenVault],
    };
  }
}
