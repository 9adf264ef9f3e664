import { Controller, Get, Inject, Res } from '@nestjs/common';
import { HealthCheckService } from '@nestjs/terminus';
import { HealthSchema } from '@life/contracts';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { Contract } from '../../core/http/contract.js';
import { Public } from '../../core/http/public.decorator.js';
import { HealthIndicators } from './health.indicators.js';

@Controller('api/health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicators,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @Contract({ summary: 'Database and Redis status (503 when one is down)', tags: ['health'], access: 'public', response: HealthSchema, errors: [503] })
  async check(@Res({ passthrough: true }) reply: FastifyReply) {
    const checks = [() => this.indicators.database(), () => this.indicators.redisPing(), () => this.indicators.workers()];
    let result;
    try {
      result = await this.health.check(checks);
    } catch (error) {
      const response = (error as { getResponse?: () => unknown }).getResponse?.();
      if (!response) throw error;
      reply.status(503);
      result = response as Awaited<ReturnType<HealthCheckService['check']>>;
    }
    reply.header('cache-control', 'no-store');
    return { ...result, version: this.config.version, uptimeSeconds: Math.round(process.uptime()) };
  }
}
