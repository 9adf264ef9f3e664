import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { ProcessRole } from '../../core/queue/process-role.js';
import { AuditController } from './audit.controller.js';
import { AuditInterceptor } from './audit.interceptor.js';
import { AuditService } from './audit.service.js';
import { AuditErasureHandler } from './handlers/erasure.handler.js';
import { AuditPersonalDataHandler } from './handlers/personal-data.handler.js';
import { SecurityEventsAuditor } from './handlers/security-events.handler.js';

/** The audit log: every module may record (global), admins read it. */
@Global()
@Module({})
export class AuditModule {
  static forRoot(role: ProcessRole): DynamicModule {
    const web = role !== 'worker';
    return {
      module: AuditModule,
      controllers: web ? [AuditController] : [],
      providers: [
        AuditService,
        SecurityEventsAuditor,
        AuditErasureHandler,
        AuditPersonalDataHandler,
        ...(web ? [{ provide: APP_INTERCEPTOR, useClass: AuditInterceptor }] : []),
      ],
      exports: [AuditService],
    };
  }
}
