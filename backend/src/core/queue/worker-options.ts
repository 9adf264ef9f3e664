import { BullModule } from '@nestjs/bullmq';
import { Worker, type Processor, type WorkerOptions } from 'bullmq';
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
  }
  BullModule.workerClass = ConfiguredWorker;
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
