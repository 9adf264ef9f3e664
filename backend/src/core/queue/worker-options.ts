import { Logger } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { Worker, type Processor, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../../config/config.js';

/**
 * Makes every queue worker of this process use the configured lock duration and stalled-job
 * check (QUEUE_LOCK_DURATION_MS, QUEUE_STALLED_INTERVAL_MS): when a worker dies mid-job (killed,
 * out of memory, machine lost), its job's lock expires and another worker, or the same one
 * restarted, moves the job back to the queue and runs it again. Options a processor sets in its
 * own `@Processor()` still win. Uses `@nestjs/bullmq`'s documented `workerClass` hook, so it must
 * run before the queue module creates the workers (CoreModule.forRoot does).
 */
export function configureQueueWorkers(queue: AppConfig['queue']): void {
  BullModule.workerClass = configuredWorkerClass(queue);
}

/** The Worker class every queue of this process uses (exported for the close test). */
export function configuredWorkerClass(queue: AppConfig['queue']): typeof Worker {
  const defaults: Partial<WorkerOptions> = { lockDuration: queue.lockDurationMs, stalledInterval: queue.stalledIntervalMs };
  class ConfiguredWorker extends Worker {
    // @nestjs/bullmq creates workers as `new Worker(queueName, processor, options)`.
    constructor(name: string, processor: Processor | string | URL | null | undefined, opts: WorkerOptions) {
      // Not yet: @nestjs/bullmq creates workers while modules initialise, before @nestjs/cqrs has
      // registered its handlers and the event publisher its listeners. A job taken then would
      // find no command handler (and fail) or no listener (and be marked done with nothing done).
      super(name, processor, { ...defaults, ...opts, autorun: false });
      if (opts.autorun !== false) pending.add(this);
    }

    private bounded?: Promise<void>;

    /** BullMQ's close, bounded by QUEUE_CLOSE_WAIT_MS (see closeWithin). */
    override close(force = false): Promise<void> {
      this.bounded ??= closeWithin(this, super.close(force), queue.closeWaitMs);
      return this.bounded;
    }
  }
  return ConfiguredWorker;
}

const pending = new Set<Worker>();

/**
 * Starts the queue workers created so far: call it once the application has finished
 * initialising (every `onApplicationBootstrap` has run), which `bootstrap.ts` does.
 */
export function startQueueWorkers(): number {
  const workers = [...pending];
  pending.clear();
  for (const worker of workers) {
    // run() settles when the worker closes; errors are reported through its 'error' event.
    worker.run().catch((error: unknown) => worker.emit('error', error instanceof Error ? error : new Error(String(error))));
  }
  return workers.length;
}

const logger = new Logger('Queue');

/** An ioredis client as BullMQ holds it (RedisConnection._client), for the forced end only. */
interface HeldClient {
  _client?: Pick<Redis, 'status' | 'disconnect'> & { flushQueue?: (error: Error) => void; setStatus?: (status: string) => void };
}

/**
 * Waits for a worker's close at most `waitMs`. A close normally takes as long as the running jobs.
 * But BullMQ's close can wait forever for its blocking Redis client to end: after an outage, that
 * client can be left "reconnecting" with no socket and no retry timer, where ioredis' disconnect()
 * does nothing and no `end` ever comes (bullmq issues 4585 and 4656; seen here once in
 * faults.test after a Redis hang). Past `waitMs` it says so, ends the worker's two clients itself
 * (pending commands fail, `end` is emitted), stops its lock-renewal and stalled-check timers, gives BullMQ one more second, and returns
 * either way, so the process's other shutdown hooks run and it exits. A job still running then loses
 * its lock and another worker takes it (the stalled-job check), as after a crash.
 */
async function closeWithin(worker: Worker, closing: Promise<void>, waitMs: number): Promise<void> {
  const settled = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      closing.then(
        () => (clearTimeout(timer), resolve(true)),
        () => (clearTimeout(timer), resolve(true)),
      );
    });
  if (await settled(waitMs)) return;
  const internals = worker as unknown as {
    backend?: { connection?: HeldClient; blockingConnection?: HeldClient };
    lockManager?: { close(): Promise<void> };
    stalledCheckStopper?: () => void;
  };
  const backend = internals.backend;
  const clients = [backend?.blockingConnection?._client, backend?.connection?._client].filter((c) => c !== undefined);
  logger.warn(
    { queue: worker.name, clients: clients.map((c) => c.status) },
    `Queue worker "${worker.name}" still closing after ${waitMs} ms (QUEUE_CLOSE_WAIT_MS): ending its Redis connections`,
  );
  for (const client of clients) {
    if (client.status === 'end') continue;
    const socketless = client.status === 'reconnecting';
    client.disconnect();
    // A client waiting to reconnect with no timer ignores disconnect(): fail what it holds and end it by hand.
    if (socketless) {
      client.flushQueue?.(new Error('Connection ended by the worker close (QUEUE_CLOSE_WAIT_MS)'));
      client.setStatus?.('end');
    }
  }
  // The timers BullMQ stops at the end of a close that may now never come: lock renewals, stalled checks.
  await internals.lockManager?.close().catch(() => undefined);
  internals.stalledCheckStopper?.();
  await settled(1000);
}
