import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { HEALTH_ADMIN_HANDLERS } from './handlers/admin.handlers.js';
import { HealthController } from './health.controller.js';
import { HealthIndicators } from './health.indicators.js';
import { QueuesService } from './queues.service.js';
import { SystemHealthService } from './system-health.service.js';
import { WorkerHeartbeats } from './worker-heartbeats.js';

/** The public health check and the admin's 'Salud del Sistema' (web processes only). */
@Module({
  imports: [TerminusModule.forRoot({ logger: false }), DiscoveryModule],
  controllers: [HealthController],
  providers: [HealthIndicators, QueuesService, SystemHealthService, WorkerHeartbeats, ...HEALTH_ADMIN_HANDLERS],
})
export class HealthModule {}
