import { Module, type DynamicModule } from '@nestjs/common';
import type { ProcessRole } from '../../core/queue/process-role.js';
import { AuditInterceptor } from './audit.interceptor.js';
import { AuditService } from './audit.service.js';
import { AuditPageHandler } from './handlers/admin.handlers.js';
import { AuditErasureHandler } from './handlers/erasure.handler.js';
import { AuditPersonalDataHandler } from './handlers/personal-data.handler.js';
import { SecurityEventsAuditor } from './handlers/security-events.handler.js';
import { BillingSubscriptionAuditor } from './handlers/billing-subscription.handler.js';

/**
 * The audit log. It listens to the other modules' security events, records @Audited admin
 * requests (interceptor), and answers the admin's AuditPageQuery; nobody else writes to it.
 */
@Module({})
export class AuditModule {
  // The role no longer changes what this module holds (kept for the app module's call).
  static forRoot(_role: ProcessRole): DynamicModule {
    return {
      module: AuditModule,
      // @Audited routes of other modules (admin, auth) get AuditInterceptor, which needs
      // AuditService wherever those controllers are declared (in every role).
      global: true,
      exports: [AuditService],
      providers: [
        AuditService,
        SecurityEventsAuditor,
        BillingSubscriptionAuditor,
        AuditErasureHandler,
        AuditPersonalDataHandler,
        AuditPageHandler,
        AuditInterceptor,
      ],
    };
  }
}
