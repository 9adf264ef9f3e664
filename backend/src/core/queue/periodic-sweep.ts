import type { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

/**
 * A worker-side safety net that runs `work()` at start and then every `intervalMs()`: it never
 * overlaps itself, and a failure is logged and retried at the next tick. Subclasses say what to
 * sweep and how often; every worker may run one, so `work()` must be safe to repeat.
 */
export abstract class PeriodicSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  protected abstract readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  protected abstract intervalMs(): number;

  /** Returns how many items it handled (for the log line). */
  protected abstract work(): Promise<number>;

  protected describe(count: number): string {
    return `Swept ${count} item(s)`;
  }

  onApplicationBootstrap(): void {
    // Once at start too: a worker that comes back after an outage catches up at once.
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.intervalMs());
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const count = await this.work();
      if (count > 0) this.logger.log(this.describe(count));
      return count;
    } catch (error) {
      this.logger.warn(`Sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    } finally {
      this.running = false;
    }
  }
}
