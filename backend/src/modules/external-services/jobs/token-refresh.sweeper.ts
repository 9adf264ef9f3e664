import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { TokenRefreshService } from '../token-refresh.service.js';

/**
 * Worker side: every TOKEN_REFRESH_SWEEP_MS, queues a refresh for each connection whose access
 * token expires within the margin, and for idle ones (keep-alive). Every worker sweeps; job ids
 * and the per-connection lock make the overlap harmless.
 */
@Injectable()
export class TokenRefreshSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TokenRefreshSweeper');
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly refresher: TokenRefreshService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Once at start too: a worker that comes back after an outage catches up at once.
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.config.tokenRefresh.sweepMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const queued = await this.refresher.sweep();
      if (queued > 0) this.logger.debug(`Queued ${queued} connection refresh(es)`);
      return queued;
    } catch (error) {
      this.logger.warn(`Sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    } finally {
      this.running = false;
    }
  }
}
