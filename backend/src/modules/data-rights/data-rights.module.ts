import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { runsWorkers, type ProcessRole } from '../../core/queue/process-role.js';
import { SessionService } from '../auth/session.service.js';
import { BillingModule } from '../billing/billing.module.js';
import { ExternalServicesModule } from '../external-services/external-services.module.js';
import { OAuthServerModule } from '../oauth-server/oauth-server.module.js';
import { AccountErasureService } from './account-erasure.service.js';
import { DataExportService } from './data-export.service.js';
import { DataRightsController } from './data-rights.controller.js';
import { DataRightsQueues } from './data-rights.queues.js';
import { AccountErasureProcessor } from './jobs/account-erasure.processor.js';
import { ACCOUNT_ERASURE_QUEUE, DATA_EXPORT_QUEUE } from './jobs/data-rights.jobs.js';
import { DataExportProcessor } from './jobs/data-export.processor.js';
import { DataRightsSweeper } from './jobs/data-rights.sweeper.js';
import { PersonalDataRepository } from './personal-data.repository.js';

/**
 * The person's data rights (docs/data-rights.md): web roles take the requests and serve the
 * export; worker roles build exports and erase accounts (`data-export`, `account-erasure`
 * queues) and sweep up what Redis lost. Outside effects go through the owning modules' services.
 */
@Module({})
export class DataRightsModule {
  static forRoot(role: ProcessRole): DynamicModule {
    return {
      module: DataRightsModule,
      imports: [
        BullModule.registerQueue({ name: DATA_EXPORT_QUEUE }, { name: ACCOUNT_ERASURE_QUEUE }),
        ExternalServicesModule.forRoot(role),
        OAuthServerModule.forRoot(role),
        BillingModule.forRoot(role),
      ],
      controllers: role === 'worker' ? [] : [DataRightsController],
      providers: [
        // Auth's own service (stateless): revoking sessions is needed in worker roles too, where AuthModule is not loaded.
        SessionService,
        PersonalDataRepository,
        DataRightsQueues,
        DataExportService,
        AccountErasureService,
        ...(runsWorkers(role) ? [DataExportProcessor, AccountErasureProcessor, DataRightsSweeper] : []),
      ],
    };
  }
}
