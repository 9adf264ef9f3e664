import { Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  QueueJobParamsSchema,
  StripeEventParamsSchema,
  SystemHealthSchema,
  type QueueJobParams,
  type StripeEventParams,
  type SystemHealth,
} from '@life/contracts';
import type { FastifyReply } from 'fastify';
import { Contract } from '../../core/http/contract.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { Audited, type AuditedContext } from '../audit/public/audited.decorator.js';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { DiscardQueueJobCommand, RetryQueueJobCommand, SystemHealthQuery } from '../health/public/commands.js';
import { DismissStripeEventCommand, RetryStripeEventCommand } from '../billing/public/commands.js';

const queueJob = ({ params }: AuditedContext) => ({ type: 'queue_job', id: `${params.queue}/${params.id}` });
const stripeEvent = ({ params }: AuditedContext) => ({ type: 'stripe_event', id: String(params.id) });

/** The admin panel's 'Salud del Sistema': the full report, and the failed jobs' dead-letter actions. */
@Controller('api/admin')
@Roles('admin')
export class AdminHealthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('health')
  @Contract({
    summary:
      'Database and Redis with latency, every queue with its counts and newest failed jobs, live workers, token-refresh failures by service, version and uptime',
    tags: ['admin'],
    access: 'admin',
    response: SystemHealthSchema,
  })
  report(@Res({ passthrough: true }) reply: FastifyReply): Promise<SystemHealth> {
    reply.header('cache-control', 'no-store');
    return this.queries.execute(new SystemHealthQuery());
  }

  @Post('queues/:queue/jobs/:id/retry')
  @Audited({ action: 'admin.queue_job_retried', target: queueJob })
  @HttpCode(204)
  @Contract({
    summary: 'Run a failed job again (its attempts count from zero)',
    tags: ['admin'],
    access: 'admin',
    params: QueueJobParamsSchema,
    successStatus: 204,
    errors: [404, 409],
  })
  retry(@Param() params: QueueJobParams): Promise<void> {
    return this.commands.execute(new RetryQueueJobCommand(params.queue, params.id));
  }

  @Delete('queues/:queue/jobs/:id')
  @Audited({ action: 'admin.queue_job_discarded', target: queueJob })
  @HttpCode(204)
  @Contract({
    summary: 'Discard a failed job',
    tags: ['admin'],
    access: 'admin',
    params: QueueJobParamsSchema,
    successStatus: 204,
    errors: [404, 409],
  })
  discard(@Param() params: QueueJobParams): Promise<void> {
    return this.commands.execute(new DiscardQueueJobCommand(params.queue, params.id));
  }

  @Post('stripe-events/:id/retry')
  @Audited({ action: 'admin.stripe_event_retried', target: stripeEvent })
  @HttpCode(204)
  @Contract({
    summary: 'Apply again a Stripe event that gave up (its attempts count from zero)',
    tags: ['admin'],
    access: 'admin',
    params: StripeEventParamsSchema,
    successStatus: 204,
    errors: [404, 409],
  })
  retryStripeEvent(@Param() params: StripeEventParams): Promise<void> {
    return this.commands.execute(new RetryStripeEventCommand(params.id));
  }

  @Post('stripe-events/:id/dismiss')
  @Audited({ action: 'admin.stripe_event_dismissed', target: stripeEvent })
  @HttpCode(204)
  @Contract({
    summary: 'Dismiss a Stripe event that gave up: kept, never applied, no longer needing attention',
    tags: ['admin'],
    access: 'admin',
    params: StripeEventParamsSchema,
    successStatus: 204,
    errors: [404, 409],
  })
  dismissStripeEvent(@Param() params: StripeEventParams): Promise<void> {
    return this.commands.execute(new DismissStripeEventCommand(params.id));
  }
}
