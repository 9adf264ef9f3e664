import { Injectable, Logger } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { FAILED_JOBS_SHOWN, type FailedJob, type QueueHealth } from '@life/contracts';
import { Queue, type Job } from 'bullmq';
import { within } from '../../core/util/within.js';
import { HealthError, HealthErrorCode } from './health.errors.js';
import { msg } from '../../core/i18n/messages.js';

const REDIS_TIMEOUT_MS = 2000;
const REASON_MAX = 1000;

const toFailedJob = (job: Job): FailedJob => ({
  id: String(job.id),
  name: job.name,
  failedReason: (job.failedReason || '').slice(0, REASON_MAX),
  attemptsMade: job.attemptsMade,
  timestamp: job.timestamp,
  finishedOn: job.finishedOn ?? null,
});

/**
 * The app's BullMQ queues as an admin sees them: counts, the newest failed jobs, and retrying or
 * discarding one. The list is every queue a module registered (BullModule.registerQueue), found
 * in Nest's container, so a new queue shows up without touching this module.
 */
@Injectable()
export class QueuesService {
  private readonly logger = new Logger('Queues');
  private registered: Map<string, Queue> | undefined;

  constructor(private readonly discovery: DiscoveryService) {}

  /** By name, sorted; built on first use, when every module's providers exist. */
  private get queues(): Map<string, Queue> {
    if (!this.registered) {
      const found = this.discovery
        .getProviders()
        .map((wrapper) => (wrapper.isDependencyTreeStatic() ? (wrapper.instance as unknown) : undefined))
        .filter((instance): instance is Queue => instance instanceof Queue);
      this.registered = new Map(found.sort((a, b) => a.name.localeCompare(b.name)).map((queue) => [queue.name, queue]));
    }
    return this.registered;
  }

  names(): string[] {
    return [...this.queues.keys()];
  }

  /** Every queue's counts and newest failed jobs; a queue Redis did not answer for has null counts. */
  async overview(): Promise<QueueHealth[]> {
    return Promise.all(
      [...this.queues.values()].map(async (queue): Promise<QueueHealth> => {
        try {
          const [counts, failed] = await within(
            Promise.all([queue.getJobCounts('waiting', 'active', 'delayed', 'failed'), queue.getFailed(0, FAILED_JOBS_SHOWN - 1)]),
            REDIS_TIMEOUT_MS,
          );
          return {
            name: queue.name,
            counts: { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0 },
            // A job removed between the listing and the read comes back empty.
            failed: failed.filter((job): job is Job => Boolean(job?.id)).map(toFailedJob),
          };
        } catch (error) {
          this.logger.warn(`Could not read queue ${queue.name}: ${error instanceof Error ? error.message : String(error)}`);
          return { name: queue.name, counts: null, failed: [] };
        }
      }),
    );
  }

  /** Runs a failed job again, with its attempts counted from zero (its own retry policy applies again). */
  async retry(queueName: string, jobId: string): Promise<void> {
    const { queue, job } = await this.failedJob(queueName, jobId);
    await this.settle(queue, jobId, () => job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true }));
    this.logger.log(`Failed job ${queueName}/${jobId} queued again`);
  }

  /** Deletes a failed job for good. */
  async discard(queueName: string, jobId: string): Promise<void> {
    const { queue, job } = await this.failedJob(queueName, jobId);
    await this.settle(queue, jobId, () => job.remove());
    this.logger.log(`Failed job ${queueName}/${jobId} discarded`);
  }

  private async failedJob(queueName: string, jobId: string): Promise<{ queue: Queue; job: Job }> {
    const queue = this.queues.get(queueName);
    if (!queue) throw new HealthError(HealthErrorCode.QueueNotFound, msg('health.unknownQueue', { queue: queueName, queues: this.names().join(', ') }));
    // The state first: it only looks the id up in the queue's sets, so an id that names another
    // of the queue's keys ("meta", "events"…) is simply unknown.
    const state = await queue.getJobState(jobId);
    if (state === 'unknown') throw new HealthError(HealthErrorCode.JobNotFound, msg('health.jobNotFound', { queue: queueName, job: jobId }));
    if (state !== 'failed') throw new HealthError(HealthErrorCode.JobNotFailed, msg('health.jobNotFailed', { job: jobId, state }));
    const job = await queue.getJob(jobId);
    if (!job) throw new HealthError(HealthErrorCode.JobNotFound, msg('health.jobNotFound', { queue: queueName, job: jobId }));
    return { queue, job };
  }

  /** Another admin (or the queue's own cleanup) may have moved the job since we looked. */
  private async settle(queue: Queue, jobId: string, action: () => Promise<unknown>): Promise<void> {
    try {
      await action();
    } catch (error) {
      const state = await queue.getJobState(jobId).catch(() => undefined);
      if (state === 'unknown') throw new HealthError(HealthErrorCode.JobNotFound, msg('health.jobGone', { job: jobId, queue: queue.name }));
      if (state && state !== 'failed') throw new HealthError(HealthErrorCode.JobNotFailed, msg('health.jobNoLongerFailed', { job: jobId, state }));
      throw error;
    }
  }
}
