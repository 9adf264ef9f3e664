import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { EraseAccountCommand, type ErasureOutcome } from '../public/commands.js';
import { ACCOUNT_ERASURE_QUEUE, type AccountErasureJob } from './data-rights.jobs.js';

@Processor(ACCOUNT_ERASURE_QUEUE)
export class AccountErasureProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  process(job: Job<AccountErasureJob>): Promise<ErasureOutcome> {
    return this.commands.execute(new EraseAccountCommand(job.data.userId));
  }
}
