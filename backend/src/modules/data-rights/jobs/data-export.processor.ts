import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { BuildExportCommand, type ExportOutcome } from '../public/commands.js';
import { DATA_EXPORT_QUEUE, type DataExportJob } from './data-rights.jobs.js';

@Processor(DATA_EXPORT_QUEUE, { concurrency: 2 })
export class DataExportProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async process(job: Job<DataExportJob>): Promise<{ outcome: ExportOutcome }> {
    // attemptsMade counts the attempts that failed before this one.
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return { outcome: await this.commands.execute(new BuildExportCommand(job.data.exportId, finalAttempt)) };
  }
}
