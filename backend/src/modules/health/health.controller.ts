import { Controller, Get, Inject, Res } from '@nestjs/common';
import { HealthCheckService } from '@nestjs/terminus';
import { HealthSchema } from '@life/contracts';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { Contract } from '../../core/http/contract.js';
import { Public } from '../../core/http/public.decorator.js';
import { HealthIndicators } from './health.indicators.js';

type HealthResult = Awaited<ReturnType<HealthCheckService['check']>>;

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
  ) {}

  @Get()
  @Public()
  @Contract({ summary: 'Database and Redis status (503 when one is down)', tags: ['health'], access: 'public', response: HealthSchema, errors: [503] })
  async check(@Res({ passthrough: true }) reply: FastifyReply) {
    this.inFlight ??= this.probe().finally(() => {
      this.inFlight = undefined;
    });
    const { result, ok } = await this.inFlight;
    if (!ok) reply.status(503);
    reply.header('cache-control', 'no-store');
    return { ...result, version: this.config.version, uptimeSeconds: Math.round(process.uptime()) };
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
