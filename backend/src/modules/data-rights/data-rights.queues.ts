import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { addOnce, KEEP_FAILED } from '../../core/queue/jobs.js';
import { within } from '../../core/util/within.js';
import {
  ACCOUNT_ERASURE_QUEUE,
  BUILD_DATA_EXPORT,
  DATA_EXPORT_QUEUE,
  ERASE_ACCOUNT,
  ERASURE_ATTEMPTS,
  ERASURE_RETRY_DELAY_MS,
  EXPORT_ATTEMPTS,
  erasureJobId,
  type AccountErasureJob,
  type DataExportJob,
} from './jobs/data-rights.jobs.js';

/** A queue call must never hold an HTTP request while Redis is away: the sweeper queues it later. */
const ENQUEUE_TIMEOUT_MS = 2000;

/** How long a failed erasure job waits before the sweeper runs it again. */
export const ERASURE_RETRY_AFTER_FAILURE_MS = 15 * 60_000;

/**
 * The producer side of `data-export` and `account-erasure`, used by web processes (requests)
 * and by the sweeper. Job ids are the row ids, so queuing twice is harmless.
 */
@Injectable()
export class DataRightsQueues {
  private readonly logger = new Logger('DataRights');

  constructor(
    @InjectQueue(DATA_EXPORT_QUEUE) private readonly exports: Queue<DataExportJob>,
    @InjectQueue(ACCOUNT_ERASURE_QUEUE) private readonly erasures: Queue<AccountErasureJob>,
  ) {}

  /** Best effort, never throws; true when a job was added (false: one was there already, or Redis is away). */
  async enqueueExport(exportId: string): Promise<boolean> {
    return this.add(`export ${exportId}`, async () => {
      // A failed build stays in Salud; the sweeper runs it again after ERASURE_RETRY_AFTER_FAILURE_MS.
      const outcome = await addOnce(
        this.exports,
        BUILD_DATA_EXPORT,
        { exportId },
        { jobId: exportId, attempts: EXPORT_ATTEMPTS, backoff: { type: 'exponential', delay: 5_000 } },
        ERASURE_RETRY_AFTER_FAILURE_MS,
      );
      return outcome === 'added' || outcome === 'retried';
    });
  }

  /**
   * Best effort, never throws. Failed jobs are kept (Salud shows them); `retryFailed` runs a job
   * that failed long enough ago again, since a half-done erasure must finish.
   */
  async enqueueErasure(userId: string, options: { retryFailed?: boolean } = {}): Promise<boolean> {
    return this.add(`erasure of ${userId}`, () => this.addErasure(userId, options));
  }

  /** For the outbox delivery: queued or already there, or it throws (and the delivery retries). */
  async enqueueErasureOrThrow(userId: string): Promise<void> {
    await within(this.addErasure(userId, {}), ENQUEUE_TIMEOUT_MS);
  }

  private async addErasure(userId: string, options: { retryFailed?: boolean }): Promise<boolean> {
    const jobId = erasureJobId(userId);
    const existing = await this.erasures.getJob(jobId);
    if (existing) {
      if (!options.retryFailed || !(await existing.isFailed()) || Date.now() - (existing.finishedOn ?? 0) < ERASURE_RETRY_AFTER_FAILURE_MS) return false;
      await existing.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      return true;
    }
    await this.erasures.add(
      ERASE_ACCOUNT,
      { userId },
      {
        jobId,
        attempts: ERASURE_ATTEMPTS,
        backoff: { type: 'exponential', delay: ERASURE_RETRY_DELAY_MS },
        removeOnComplete: true,
        removeOnFail: KEEP_FAILED,
      },
    );
    return true;
  }

  private async add(what: string, work: () => Promise<boolean>): Promise<boolean> {
    try {
      return await within(work(), ENQUEUE_TIMEOUT_MS);
    } catch (error) {
      this.logger.warn(`Could not queue the ${what} yet (${error instanceof Error ? error.message : String(error)}); the sweeper will retry.`);
      return false;
    }
  }
}
