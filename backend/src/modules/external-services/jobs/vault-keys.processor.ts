import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import type { RotationResult } from '../../../core/crypto/sealed-columns.js';
import { RotateVaultKeysCommand } from '../public/commands.js';
import { VAULT_QUEUE, type ReencryptJob } from './token-refresh.job.js';

/** `npm run cli -- keys:rotate` queues one job; a worker runs the pass. One pass at a time per process. */
@Processor(VAULT_QUEUE, { concurrency: 1 })
export class VaultKeysProcessor extends WorkerHost {
  private readonly logger = new Logger('KeyRotationWorker');

  constructor(private readonly commands: CommandBus) {
    super();
  }

  /** The pass refuses a job asking for another primary key than this process's (the job fails and is retried). */
  process(job: Job<ReencryptJob>): Promise<RotationResult> {
    return this.commands.execute(new RotateVaultKeysCommand(job.data.primaryKeyId, (done) => job.updateProgress({ reencrypted: done })));
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`Worker connection: ${error.message}`);
  }
}
