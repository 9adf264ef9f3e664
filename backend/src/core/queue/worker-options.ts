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
      super(name, processor, { ...defaults, ...opts });
    }
  }
  BullModule.workerClass = ConfiguredWorker;
}
