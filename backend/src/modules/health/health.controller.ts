import { Controller, Get, Inject, Res } from '@nestjs/common';
import { HealthCheckService } from '@nestjs/terminus';
import { HealthSchema, LivenessSchema, type Liveness } from '@life/contracts';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { Contract } from '../../core/http/contract.js';
import { Stopping } from '../../core/lifecycle/stopping.js';
import { Public } from '../../core/http/public.decorator.js';
import { HealthIndicators } from './health.indicators.js';

type HealthResult = Awaited<ReturnType<HealthCheckService['check']>>;

/** What readiness answers once the process has been told to stop, without probing anything. */
const STOPPING: HealthResult = {
  status: 'error',
  info: {},
  error: { process: { status: 'down', message: 'stopping' } },
  details: { process: { status: 'down', message: 'stopping' } },
};

/**
 * Liveness (`/live`) and readiness (`/ready`, and `/api/health` as before) for load balancers and
 * orchestrators; decision 0029 and docs/operations.md ("Health", "Stopping").
 */

@Controller('api/health')
export class HealthController {
  /**
   * The probe under way: requests that arrive while it runs share its answer instead of each
   * sending its own query and commands (a load balancer's and a monitor's checks, or a burst).
   * Every answer still comes from a probe that ended after the request arrived or was running
   * then, each bounded by its timeout, so a dead database or Redis shows at once.
   */
  private inFlight: Promise<{ result: HealthResult; ok: boolean }> | undefined;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicators,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly stopping: Stopping,
  ) {}

  @Get()
  @Public()
  @Contract({
    summary: 'Readiness with details: database and Redis status (503 when one is down or the process is stopping)',
    tags: ['health'],
    access: 'public',
    response: HealthSchema,
    errors: [503],
  })
  check(@Res({ passthrough: true }) reply: FastifyReply) {
    return this.readiness(reply);
  }

  @Get('ready')
  @Public()
  @Contract({
    summary: "Readiness, for the load balancer: /api/health's answer (503 while the process drains before stopping)",
    tags: ['health'],
    access: 'public',
    response: HealthSchema,
    errors: [503],
  })
  ready(@Res({ passthrough: true }) reply: FastifyReply) {
    return this.readiness(reply);
  }

  @Get('live')
  @Public()
  @Contract({
    summary: 'Liveness: 200 while the process runs, stopping included; probes nothing',
    tags: ['health'],
    access: 'public',
    response: LivenessSchema,
  })
  live(@Res({ passthrough: true }) reply: FastifyReply): Liveness {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', stopping: this.stopping.requested, version: this.config.version, uptimeSeconds: Math.round(process.uptime()) };
  }

  private async readiness(reply: FastifyReply) {
    reply.header('cache-control', 'no-store');
    const answer = (result: HealthResult) => ({ ...result, version: this.config.version, uptimeSeconds: Math.round(process.uptime()) });
    if (this.stopping.requested) {
      reply.status(503);
      return answer(STOPPING);
    }
    this.inFlight ??= this.probe().finally(() => {
      this.inFlight = undefined;
    });
    const { result, ok } = await this.inFlight;
    // A stop asked for while the probe ran wins: the balancer must hear it at once.
    if (this.stopping.requested) {
      reply.status(503);
      return answer(STOPPING);
    }
    if (!ok) reply.status(503);
    return answer(result);
  }

  private async probe(): Promise<{ result: HealthResult; ok: boolean }> {
    const checks = [() => this.indicators.database(), () => this.indicators.redisPing(), () => this.indicators.workers()];
    try {
      return { result: await this.health.check(checks), ok: true };
    } catch (error) {
      const response = (error as { getResponse?: () => unknown }).getResponse?.();
      if (!response) throw error;
      return { result: response as HealthResult, ok: false };
    }
  }
}
