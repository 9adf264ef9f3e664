import { Command, Query } from '@nestjs/cqrs';
import type { Invoices, PortalSession } from '@life/contracts';

/** A Stripe customer portal session for the member's own customer (decision 0048). */
export class OpenBillingPortalCommand extends Command<PortalSession> {
  constructor(readonly userId: string) {
    super();
  }
}

/** The member's own Stripe invoices with Stripe's links (decision 0047). */
export class InvoicesQuery extends Query<Invoices> {
  constructor(readonly userId: string) {
    super();
  }
}
