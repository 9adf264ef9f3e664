import type { Logger } from '@nestjs/common';

/**
 * Periodic safety-net work (sweeps). It does not time itself: `PeriodicScheduler` finds every
 * provider of this class in worker processes and keeps one BullMQ job scheduler per sweep in
 * Redis, shared by all workers, so each tick runs once on one worker and a failed run is a
 * failed job that Salud shows. Subclasses say what to sweep and how often; `work()` must be
 * safe to repeat.
 */
export abstract class PeriodicSweep {
  protected abstract readonly logger: Logger;
  private running = false;

  protected abstract intervalMs(): number;

  /** Returns how many items it handled (for the log line). */
  protected abstract work(): Promise<number>;

  protected describe(count: number): string {
    return `Swept ${count} item(s)`;
  }

  /** The job scheduler's id and job name: one schedule per sweep class. */
  get scheduleId(): string {
    return this.constructor.name;
  }

  /** How often the scheduler runs it. */
  get everyMs(): number {
    return this.intervalMs();
  }

  /** One run for the scheduler: a failure is thrown, so the job fails (and Salud shows it). */
  async run(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const count = await this.work();
      if (count > 0) this.logger.log(this.describe(count));
      return count;
    } finally {
      this.running = false;
    }
  }

  /** One run now that never throws (a failure is logged): for tests and callers that must go on. */
  async sweep(): Promise<number> {
    try {
      return await this.run();
    } catch (error) {
      this.logger.warn(`Sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  }
}
