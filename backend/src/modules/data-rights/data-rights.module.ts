import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { runsWorkers, type ProcessRole } from '../../core/queue/process-role.js';
import { AccountErasureService } from './account-erasure.service.js';
import { DataExportService } from './data-export.service.js';
import { DataRightsController } from './data-rights.controller.js';
import { DataRightsQueues } from './data-rights.queues.js';
import { AccountErasureProcessor } from './jobs/account-erasure.processor.js';
import { ACCOUNT_ERASURE_QUEUE, DATA_EXPORT_QUEUE } from './jobs/data-rights.jobs.js';
import { DataExportProcessor } from './jobs/data-export.processor.js';
import { DataRightsSweeper } from './jobs/data-rights.sweeper.js';
import { DATA_RIGHTS_HANDLERS } from './handlers/data-rights.handlers.js';
import { AccountErasureRequestedHandler } from './handlers/erasure-requested.handler.js';
import { PersonalDataRepository } from './personal-data.repository.js';

/**
 * The person's data rights (docs/data-rights.md): web roles take the requests and serve the
 * export; worker roles build exports and erase accounts (`data-export`, `account-erasure`
 * queues) and sweep up what Redis lost. Other modules take part through events (ErasingAccountEvent)
 * and answer through queries; this module touches no other module's tables.
 */
@Module({})
export class DataRightsModule {
  static forRoot(role: ProcessRole): DynamicModule {
    return {
      module: DataRightsModule,
      imports: [BullModule.registerQueue({ name: DATA_EXPORT_QUEUE }, { name: ACCOUNT_ERASURE_QUEUE })],
      controllers: role === 'worker' ? [] : [DataRightsController],
      providers: [
        PersonalDataRepository,
        DataRightsQueues,
        DataExportService,
        AccountErasureService,
        AccountErasureRequestedHandler,
        // Every role: the web's requests, the worker's export builds and erasures.
        ...DATA_RIGHTS_HANDLERS,
        ...(runsWorkers(role) ? [DataExportProcessor, AccountErasureProcessor, DataRightsSweeper] : []),
      ],
    };
  }
}
