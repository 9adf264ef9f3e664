import { Module } from '@nestjs/common';
import { AdminAuditController } from './audit.controller.js';
import { BetaInvitesController } from './beta-invites.controller.js';
import { ContactMessagesController } from './contact-messages.controller.js';
import { AdminHealthController } from './health.controller.js';
import { LoginProvidersController } from './login-providers.controller.js';
import { OAuthClientsController } from './oauth-clients.controller.js';
import { AdminSalesController } from './sales.controller.js';
import { AdminServicesController } from './services.controller.js';

/**
 * The admin panel's HTTP surface (web processes): beta invitations, login providers, the service
 * catalog, client apps, Salud, the audit log, contact messages and sales. Every controller is thin: it
 * checks the role (`@Roles('admin')`, on the server), validates with the shared contract, and
 * dispatches a command or query that the owning module handles. It owns no table and no rule.
 */
@Module({
  controllers: [
    BetaInvitesController,
    LoginProvidersController,
    AdminServicesController,
    OAuthClientsController,
    AdminHealthController,
    AdminAuditController,
    ContactMessagesController,
    AdminSalesController,
  ],
})
export class AdminModule {}
