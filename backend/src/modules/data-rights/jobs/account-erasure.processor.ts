import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { AccountErasureService, type ErasureOutcome } from '../account-erasure.service.js';
import { ACCOUNT_ERASURE_QUEUE, type AccountErasureJob } from './data-rights.jobs.js';

@Processor(ACCOUNT_ERASURE_QUEUE)
export class AccountErasureProcessor extends WorkerHost {
  constructor(private readonly erasure: AccountErasureService) {
    super();
  }

  process(job: Job<AccountErasureJob>): Promise<ErasureOutcome> {
    return this.erasure.erase(job.data.userId);
  }
}
