import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { CheckoutResponse, Editions, LateRefund, Membership, StripeEventAttention } from '@life/contracts';
import { BillingService } from '../billing.service.js';
import { DismissStripeEventCommand, ReceiveStripeEventCommand, RetryStripeEventCommand, StartCheckoutCommand } from '../public/commands.js';
import { EditionsQuery, MembershipQuery, StripeEventsNeedingAttentionQuery } from '../public/queries.js';

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
  async execute({ userId }: MembershipQuery): Promise<{ membership: Membership | null; late_refund: LateRefund | null }> {
    const [membership, lateRefund] = await Promise.all([this.billing.membershipOf(userId), this.billing.lateRefundOf(userId)]);
    return { membership, late_refund: lateRefund };
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

@QueryHandler(StripeEventsNeedingAttentionQuery)
export class StripeEventsNeedingAttentionHandler implements IQueryHandler<StripeEventsNeedingAttentionQuery> {
  constructor(private readonly billing: BillingService) {}
  execute({ limit }: StripeEventsNeedingAttentionQuery): Promise<StripeEventAttention[]> {
    return this.billing.eventsNeedingAttention(limit);
  }
}

@CommandHandler(RetryStripeEventCommand)
export class RetryStripeEventHandler implements ICommandHandler<RetryStripeEventCommand> {
  constructor(private readonly billing: BillingService) {}
  execute({ eventId }: RetryStripeEventCommand): Promise<void> {
    return this.billing.retryEvent(eventId);
  }
}

@CommandHandler(DismissStripeEventCommand)
export class DismissStripeEventHandler implements ICommandHandler<DismissStripeEventCommand> {
  constructor(private readonly billing: BillingService) {}
  execute({ eventId }: DismissStripeEventCommand): Promise<void> {
    return this.billing.dismissEvent(eventId);
  }
}

/** What the web roles dispatch (the HTTP API). */
export const BILLING_WEB_HANDLERS = [
  EditionsHandler,
  MembershipHandler,
  StartCheckoutHandler,
  ReceiveStripeEventHandler,
  StripeEventsNeedingAttentionHandler,
  RetryStripeEventHandler,
  DismissStripeEventHandler,
];
