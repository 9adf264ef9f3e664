import { Module, type DynamicModule } from '@nestjs/common';
import { CoreModule, type CoreOptions } from './core/core.module.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';
import { SEALED_TABLES } from './sealed-columns.js';
import { AdminModule } from './modules/admin/admin.module.js';
import { AuditModule } from './modules/audit/audit.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { BillingModule } from './modules/billing/billing.module.js';
import { ContactModule } from './modules/contact/contact.module.js';
import { DataRightsModule } from './modules/data-rights/data-rights.module.js';
import { ExternalServicesModule } from './modules/external-services/external-services.module.js';
import { OAuthServerModule } from './modules/oauth-server/oauth-server.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { SiteModule } from './modules/site/site.module.js';
import { UsersModule } from './modules/users/users.module.js';
import { YourDayModule } from './modules/your-day/your-day.module.js';

@Module({})
export class AppModule {
  static forRoot(options: Omit<CoreOptions, 'orm' | 'sealedTables'>): DynamicModule {
    const web = options.role !== 'worker';
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ ...options, orm: { entities: ENTITIES, migrations: MIGRATIONS }, sealedTables: SEALED_TABLES }),
        AuditModule.forRoot(options.role),
        BillingModule.forRoot(options.role),
        ExternalServicesModule.forRoot(options.role),
        ContactModule.forRoot(options.role),
        OAuthServerModule.forRoot(options.role),
        DataRightsModule.forRoot(options.role),
        YourDayModule.forRoot(options.role),
        // Users and auth in every role: workers erase accounts and ask them questions.
        UsersModule,
        AuthModule,
        ...(web ? [HealthModule, SiteModule, AdminModule] : []),
      ],
    };
  }
}
