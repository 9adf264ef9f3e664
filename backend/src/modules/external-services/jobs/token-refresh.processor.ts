import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { RefreshConnectionCommand } from '../public/commands.js';
import type { RefreshOutcome } from '../token-refresh.service.js';
import { TOKEN_REFRESH_QUEUE, type TokenRefreshJob } from './token-refresh.job.js';

@Processor(TOKEN_REFRESH_QUEUE)
export class TokenRefreshProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('TokenRefreshWorker');

  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  /** Refreshes wait on the network, so one process runs several at once (TOKEN_REFRESH_CONCURRENCY). */
  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.tokenRefresh.concurrency;
  }

  process(job: Job<TokenRefreshJob>): Promise<{ outcome: RefreshOutcome }> {
    return this.commands.execute(new RefreshConnectionCommand(job.data.connectionId));
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`Worker connection: ${error.message}`);
  }
}
