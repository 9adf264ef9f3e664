import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { MembershipCancellationScheduledEvent, MembershipCancellationWithdrawnEvent, MembershipEndedEvent } from '../../billing/public/subscription-events.js';
import { AuditService } from '../audit.service.js';

type Recorded = MembershipCancellationScheduledEvent | MembershipCancellationWithdrawnEvent | MembershipEndedEvent;

/**
 * Cancelling a membership (decision 0048) in the audit log: durable events delivered by a worker
 * (no request), so the event's own id keeps one record however often it is delivered.
 */
@EventsHandler(MembershipCancellationScheduledEvent, MembershipCancellationWithdrawnEvent, MembershipEndedEvent)
export class BillingSubscriptionAuditor implements IEventHandler<Recorded> {
  constructor(private readonly audit: AuditService) {}

  async handle(event: Recorded): Promise<void> {
    const common = {
      id: event.eventId,
      actor: { id: event.userId, label: null },
      target: { type: 'membership', id: event.membershipId },
      ip: null,
      userAgent: null,
    };
    if (event instanceof MembershipCancellationScheduledEvent) {
      return this.audit.record({ ...common, action: 'billing.cancellation_scheduled', details: { cancel_at: event.cancelAt } });
    }
    if (event instanceof MembershipCancellationWithdrawnEvent) {
      return this.audit.record({ ...common, action: 'billing.cancellation_withdrawn', details: {} });
    }
    return this.audit.record({
      ...common,
      // Stripe ended it (the paid period ran out, or an erasure cancelled it): the system, not the person.
      actor: { id: null, label: null },
      action: 'billing.membership_ended',
      details: { edition: event.edition, member_number: event.memberNumber, seat_released: event.seatReleased },
    });
  }
}
