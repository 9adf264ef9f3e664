import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { SystemHealth } from '@life/contracts';
import { DiscardQueueJobCommand, RetryQueueJobCommand, SystemHealthQuery } from '../public/commands.js';
import { QueuesService } from '../queues.service.js';
import { SystemHealthService } from '../system-health.service.js';

@QueryHandler(SystemHealthQuery)
export class SystemHealthHandler implements IQueryHandler<SystemHealthQuery> {
  constructor(private readonly health: SystemHealthService) {}
  execute(): Promise<SystemHealth> {
    return this.health.report();
  }
}

@CommandHandler(RetryQueueJobCommand)
export class RetryQueueJobHandler implements ICommandHandler<RetryQueueJobCommand> {
  constructor(private readonly queues: QueuesService) {}
  execute({ queue, jobId }: RetryQueueJobCommand): Promise<void> {
    return this.queues.retry(queue, jobId);
  }
}

@CommandHandler(DiscardQueueJobCommand)
export class DiscardQueueJobHandler implements ICommandHandler<DiscardQueueJobCommand> {
  constructor(private readonly queues: QueuesService) {}
  execute({ queue, jobId }: DiscardQueueJobCommand): Promise<void> {
    return this.queues.discard(queue, jobId);
  }
}

export const HEALTH_ADMIN_HANDLERS = [SystemHealthHandler, RetryQueueJobHandler, DiscardQueueJobHandler];
