import type { JobsOptions, Queue } from 'bullmq';

/**
 * Failed jobs stay in Redis, bounded, on every queue: Salud lists them and an admin retries or
 * discards them. Finished jobs need not linger (each job's row keeps its outcome).
 */
export const KEEP_FAILED = { count: 1000, age: 14 * 24 * 3600 } as const;

export type AddOutcome = 'added' | 'waiting' | 'retried' | 'failed';

/**
 * Adds a job under a fixed id unless one is there: a job still waiting or running is left alone
 * ('waiting'); a failed one stays failed for Salud ('failed') unless it failed at least
 * `retryFailedAfterMs` ago, when it runs again with fresh attempts ('retried').
 */
export async function addOnce<T>(
  queue: Queue<T>,
  name: string,
  data: T,
  options: JobsOptions & { jobId: string },
  retryFailedAfterMs?: number,
): Promise<AddOutcome> {
  const existing = await queue.getJob(options.jobId);
  if (existing) {
    if (!(await existing.isFailed())) {
      // Completed jobs are removed, but one finishing right now may still be there.
      if (!(await existing.isCompleted())) return 'waiting';
      await existing.remove();
    } else {
      if (retryFailedAfterMs === undefined || Date.now() - (existing.finishedOn ?? 0) < retryFailedAfterMs) return 'failed';
      await existing.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      return 'retried';
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- BullMQ's name/data generics
  await (queue as Queue<any>).add(name, data, { removeOnComplete: true, removeOnFail: KEEP_FAILED, ...options });
  return 'added';
}

/** Runs again the failed jobs that failed at least `olderThanMs` ago (at most `limit`); returns how many. */
export async function retryFailedOlderThan(queue: Queue, olderThanMs: number, limit = 1000): Promise<number> {
  let count = 0;
  // Oldest first: those are the ones most due another try.
  for (const job of await queue.getJobs(['failed'], 0, limit - 1, true)) {
    if (Date.now() - (job.finishedOn ?? 0) < olderThanMs) continue;
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    count += 1;
  }
  return count;
}
