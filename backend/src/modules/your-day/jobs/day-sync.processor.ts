import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import type { SyncOutcome } from '../day-sync.service.js';
import { SyncDayViewCommand } from '../public/commands.js';
import { DAY_SYNC_QUEUE, type DaySyncJob } from './day-sync.job.js';

/** Fetches one view from its provider (the `day-sync` queue). */
@Processor(DAY_SYNC_QUEUE)
export class DaySyncProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('DaySyncWorker');

  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  /** Fetches wait on the providers, so one process runs several at once (DAY_SYNC_CONCURRENCY). */
  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.yourDay.concurrency;
  }

  process(job: Job<DaySyncJob>): Promise<{ outcome: SyncOutcome }> {
    return this.commands.execute(new SyncDayViewCommand(job.data.userId, job.data.service));
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`Worker connection: ${error.message}`);
  }
}
