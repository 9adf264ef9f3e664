import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job, Queue } from 'bullmq';
import { within } from '../util/within.js';
import { KEEP_FAILED } from './jobs.js';
import { PeriodicSweep } from './periodic-sweep.js';

export const PERIODIC_QUEUE = 'periodic';
const SCHEDULE_TIMEOUT_MS = 5000;

/**
 * Names of sweep classes that no longer exist: add a class's name here when you remove or rename
 * it, so workers delete its schedule from Redis. (Empty today.)
 */
export const RETIRED_SCHEDULES: string[] = [];

/**
 * Worker processes: one BullMQ job scheduler per `PeriodicSweep` provider (its class name as
 * id, `every` its interval). Upserting is idempotent, so every worker does it at start and Redis
 * keeps a single schedule for all of them (`<QUEUE_PREFIX>:periodic:repeat` in redis-cli); BullMQ
 * runs the first tick at once, then one job per interval on whichever worker takes it.
 */
@Injectable()
export class PeriodicScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger('PeriodicScheduler');
  readonly sweeps = new Map<string, PeriodicSweep>();

  constructor(
    private readonly discovery: DiscoveryService,
    @InjectQueue(PERIODIC_QUEUE) private readonly queue: Queue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.isDependencyTreeStatic() ? wrapper.instance : undefined;
      if (instance instanceof PeriodicSweep) this.sweeps.set(instance.scheduleId, instance);
    }
    // Sweeps that were removed or renamed: their schedules would fail every tick. Only these are
    // removed, never a name this worker merely does not know (during a rolling deploy an older
    // worker must not delete a newer version's schedule).
    for (const name of RETIRED_SCHEDULES) {
      try {
        await within(this.queue.removeJobScheduler(name), SCHEDULE_TIMEOUT_MS);
      } catch (error) {
        this.logger.warn(`Could not remove the retired schedule ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    for (const sweep of this.sweeps.values()) {
      try {
        await within(
          this.queue.upsertJobScheduler(
            sweep.scheduleId,
            { every: sweep.everyMs },
            { name: sweep.scheduleId, opts: { removeOnComplete: { count: 20 }, removeOnFail: KEEP_FAILED } },
          ),
          SCHEDULE_TIMEOUT_MS,
        );
      } catch (error) {
        // The schedule another worker wrote still runs; this one is written at the next start.
        this.logger.warn(`Could not schedule ${sweep.scheduleId}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/** Runs the scheduled sweeps; several at once, so a long sweep does not hold up the others. */
@Processor(PERIODIC_QUEUE, { concurrency: 8 })
export class PeriodicProcessor extends WorkerHost {
  private readonly logger = new Logger('PeriodicWorker');

  constructor(private readonly scheduler: PeriodicScheduler) {
    super();
  }

  async process(job: Job): Promise<{ handled: number }> {
    const sweep = this.scheduler.sweeps.get(job.name);
    if (!sweep) throw new Error(`No periodic work named ${job.name} in this worker`);
    return { handled: await sweep.run() };
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`Worker connection: ${error.message}`);
  }
}
