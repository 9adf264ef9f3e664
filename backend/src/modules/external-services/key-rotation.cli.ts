import { setTimeout as sleep } from 'node:timers/promises';
import { Job, Queue } from 'bullmq';
import { REENCRYPT, VAULT_QUEUE, type ReencryptJob } from './jobs/token-refresh.job.js';
import type { RotationResult } from '../../core/crypto/sealed-columns.js';

export interface RotationRequest {
  redisUrl: string;
  queuePrefix: string;
  /** The key every process must now encrypt with (the first of ENCRYPTION_KEYS). */
  primaryKeyId: string;
  /** Wait for a worker to finish the pass (default true). */
  wait?: boolean;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export class RotationFailedError extends Error {}

const POLL_MS = 500;
const NO_WORKER_HINT_MS = 10_000;

/**
 * Queues a re-encryption pass (`keys:rotate`) for the workers and, unless told not to, waits
 * for its result. The pass runs in a worker so the command needs no database access and the
 * app keeps serving meanwhile. The CLI runs without Nest, so it dispatches nothing itself: the
 * job is the request, and the worker's VaultKeysProcessor turns it into a RotateVaultKeysCommand
 * (whose handler refuses a primary key other than its own).
 */
export async function requestRotation(request: RotationRequest): Promise<{ jobId: string; result?: RotationResult }> {
  const log = request.log ?? ((line: string) => console.log(line));
  const queue = new Queue<ReencryptJob, RotationResult>(VAULT_QUEUE, {
    connection: { url: request.redisUrl, maxRetriesPerRequest: 1 },
    prefix: request.queuePrefix,
  });
  queue.on('error', () => undefined);
  try {
    const jobId = `reencrypt-${Date.now()}`;
    await queue.add(
      REENCRYPT,
      { primaryKeyId: request.primaryKeyId, requestedAt: new Date().toISOString() },
      // A worker still on the old keys refuses the job; another attempt may reach an updated one.
      { jobId, attempts: 5, backoff: { type: 'exponential', delay: 2000 }, removeOnComplete: { age: 7 * 86_400 }, removeOnFail: { age: 7 * 86_400 } },
    );
    log(`Queued key rotation ${jobId}: every secret will be re-sealed under key "${request.primaryKeyId}".`);
    if (request.wait === false) return { jobId };

    const started = Date.now();
    const deadline = started + (request.timeoutMs ?? 30 * 60_000);
    let hinted = false;
    let lastProgress = '';
    let lastFailure = '';
    while (Date.now() < deadline) {
      const job = await Job.fromId<ReencryptJob, RotationResult>(queue, jobId);
      if (!job) throw new RotationFailedError(`Job ${jobId} disappeared from the queue.`);
      const state = await job.getState();
      if (state === 'completed') return { jobId, result: job.returnvalue };
      if (state === 'failed') throw new RotationFailedError(`The rotation failed: ${job.failedReason}`);
      const progress = JSON.stringify(job.progress);
      if (progress !== lastProgress && typeof job.progress === 'object') {
        lastProgress = progress;
        log(`  progress: ${progress}`);
      }
      if (!hinted && state === 'waiting' && Date.now() - started > NO_WORKER_HINT_MS) {
        hinted = true;
        log('No worker has taken the job yet: is a worker running (`npm start` or `npm run start:worker`) with the same REDIS_URL and QUEUE_PREFIX?');
      }
      if (job.failedReason && job.failedReason !== lastFailure) {
        lastFailure = job.failedReason;
        log(`  an attempt failed, retrying: ${job.failedReason}`);
      }
      await sleep(POLL_MS);
    }
    throw new RotationFailedError(
      `No result within ${Math.round((deadline - started) / 1000)} s; the job ${jobId} stays queued. Check again with \`npm run cli -- keys:status\`.`,
    );
  } finally {
    await queue.close();
  }
}
