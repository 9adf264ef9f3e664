import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { PeriodicSweep } from '../../../core/queue/periodic-sweep.js';
import { AccountErasureService } from '../account-erasure.service.js';
import { DataExportService } from '../data-export.service.js';

/**
 * Worker-side safety net: deletes export files past their expiry, queues again exports and
 * erasures whose jobs Redis lost (the rows say what is pending), runs failed erasures again after
 * a while.
 */
@Injectable()
export class DataRightsSweeper extends PeriodicSweep {
  protected readonly logger = new Logger('DataRightsSweeper');

  constructor(
    private readonly exports: DataExportService,
    private readonly erasure: AccountErasureService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected intervalMs(): number {
    return this.config.dataRights.sweepMs;
  }

  protected async work(): Promise<number> {
    // A request younger than one interval is still in the hands of the web process that queued it.
    const erasures = await this.erasure.sweep(this.config.dataRights.sweepMs);
    return erasures + (await this.exports.sweep());
  }

  protected override describe(count: number): string {
    return `Handled ${count} pending export(s) or erasure(s)`;
  }
}
