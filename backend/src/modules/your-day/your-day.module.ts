import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { runsWorkers, type ProcessRole } from '../../core/queue/process-role.js';
import { DaySyncService } from './day-sync.service.js';
import { DayViewsService } from './day-views.service.js';
import { DAY_VIEW_HANDLERS } from './handlers/views.handlers.js';
import { YOUR_DAY_HANDLERS } from './handlers/your-day.handlers.js';
import { DAY_SYNC_QUEUE } from './jobs/day-sync.job.js';
import { DaySyncProcessor } from './jobs/day-sync.processor.js';
import { DaySyncSweeper } from './jobs/day-sync.sweeper.js';
import { YourDayController } from './your-day.controller.js';

/**
 * "Tu día" (docs/your-day.md): what each connected service brings. Worker roles fetch views from
 * the providers (`day-sync` queue and its sweeper); every role reads the snapshots, reacts to
 * connections coming and going, and answers its part of exports and erasures.
 */
@Module({})
export class YourDayModule {
  static forRoot(role: ProcessRole): DynamicModule {
    return {
      module: YourDayModule,
      imports: [BullModule.registerQueue({ name: DAY_SYNC_QUEUE })],
      controllers: role === 'worker' ? [] : [YourDayController],
      providers: [
        DaySyncService,
        DayViewsService,
        ...YOUR_DAY_HANDLERS,
        ...DAY_VIEW_HANDLERS,
        ...(runsWorkers(role) ? [DaySyncProcessor, DaySyncSweeper] : []),
      ],
    };
  }
}
