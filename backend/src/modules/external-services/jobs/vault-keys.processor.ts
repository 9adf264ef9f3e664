import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { RotationResult } from '../../../core/crypto/sealed-columns.js';
import { VaultRotationService } from '../vault-rotation.service.js';
import { VAULT_QUEUE, type ReencryptJob } from './token-refresh.job.js';

/** `npm run cli -- keys:rotate` queues one job; a worker runs the pass. One pass at a time per process. */
@Processor(VAULT_QUEUE, { concurrency: 1 })
export class VaultKeysProcessor extends WorkerHost {
  private readonly logger = new Logger('KeyRotationWorker');

  constructor(private readonly rotation: VaultRotationService) {
    super();
  }

  async process(job: Job<ReencryptJob>): Promise<RotationResult> {
    if (job.data.primaryKeyId !== this.rotation.primaryKeyId) {
      // A worker still on the old ENCRYPTION_KEYS would seal everything under the old key again.
      throw new Error(
        `This worker encrypts with key "${this.rotation.primaryKeyId}" but the rotation asked for "${job.data.primaryKeyId}": deploy the new ENCRYPTION_KEYS to every process first.`,
      );
    }
    return this.rotation.reencryptAll((done) => job.updateProgress({ reencrypted: done }));
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`Worker connection: ${error.message}`);
  }
}
