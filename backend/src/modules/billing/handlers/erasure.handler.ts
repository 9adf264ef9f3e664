import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ErasingAccountEvent } from '../../data-rights/public/events.js';
import { BillingPrivacyService } from '../billing-privacy.service.js';

/** Erasure, billing's part: checkouts cancelled, a subscription stopped, the membership record anonymised (kept by law). */
@EventsHandler(ErasingAccountEvent)
export class BillingErasureHandler implements IEventHandler<ErasingAccountEvent> {
  constructor(private readonly billing: BillingPrivacyService) {}

  async handle(event: ErasingAccountEvent): Promise<void> {
    const outcome = await this.billing.forgetMember(event.userId);
    event.report.membership_kept = outcome.membershipKept;
    event.report.subscription_cancelled = outcome.subscriptionCancelled;
  }
}
