import { Command, Query } from '@nestjs/cqrs';
import type { SystemHealth } from '@life/contracts';

/** Salud del Sistema: dependencies, queues, workers, refresh failures, version. */
export class SystemHealthQuery extends Query<SystemHealth> {}

/** A failed job runs again (its attempts count from zero). */
export class RetryQueueJobCommand extends Command<void> {
  constructor(
    readonly queue: string,
    readonly jobId: string,
  ) {
    super();
  }
}

export class DiscardQueueJobCommand extends Command<void> {
  constructor(
    readonly queue: string,
    readonly jobId: string,
  ) {
    super();
  }
}
