import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Invoices, PortalSession } from '@life/contracts';
import { BillingPortalService } from '../billing-portal.service.js';
import { InvoicesQuery, OpenBillingPortalCommand } from '../public/portal.js';

@CommandHandler(OpenBillingPortalCommand)
export class OpenBillingPortalHandler implements ICommandHandler<OpenBillingPortalCommand> {
  constructor(private readonly portal: BillingPortalService) {}
  execute({ userId }: OpenBillingPortalCommand): Promise<PortalSession> {
    return this.portal.portal(userId);
  }
}

@QueryHandler(InvoicesQuery)
export class InvoicesHandler implements IQueryHandler<InvoicesQuery> {
  constructor(private readonly portal: BillingPortalService) {}
  execute({ userId }: InvoicesQuery): Promise<Invoices> {
    return this.portal.invoices(userId);
  }
}

/** The customer portal and invoices (web roles). */
export const BILLING_PORTAL_HANDLERS = [OpenBillingPortalHandler, InvoicesHandler];
