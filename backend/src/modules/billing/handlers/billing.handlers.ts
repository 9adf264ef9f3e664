import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { CheckoutResponse, Editions, Membership } from '@life/contracts';
import { BillingService } from '../billing.service.js';
import { ReceiveStripeEventCommand, StartCheckoutCommand } from '../public/commands.js';
import { EditionsQuery, MembershipQuery } from '../public/queries.js';

@QueryHandler(EditionsQuery)
export class EditionsHandler implements IQueryHandler<EditionsQuery> {
  constructor(private readonly billing: BillingService) {}
  execute(): Promise<Editions> {
    return this.billing.editions();
  }
}

@QueryHandler(MembershipQuery)
export class MembershipHandler implements IQueryHandler<MembershipQuery> {
  constructor(private readonly billing: BillingService) {}
  async execute({ userId }: MembershipQuery): Promise<{ membership: Membership | null }> {
    return { membership: await this.billing.membershipOf(userId) };
  }
}

@CommandHandler(StartCheckoutCommand)
export class StartCheckoutHandler implements ICommandHandler<StartCheckoutCommand> {
  constructor(private readonly billing: BillingService) {}
  execute({ userId, email }: StartCheckoutCommand): Promise<CheckoutResponse> {
    return this.billing.startCheckout({ id: userId, email });
  }
}

@CommandHandler(ReceiveStripeEventCommand)
export class ReceiveStripeEventHandler implements ICommandHandler<ReceiveStripeEventCommand> {
  constructor(private readonly billing: BillingService) {}
  execute({ rawBody, signature }: ReceiveStripeEventCommand): Promise<void> {
    return this.billing.receiveWebhook(rawBody, signature);
  }
}

/** What the web roles dispatch (the HTTP API). */
export const BILLING_WEB_HANDLERS = [EditionsHandler, MembershipHandler, StartCheckoutHandler, ReceiveStripeEventHandler];
