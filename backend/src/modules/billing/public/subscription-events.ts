import { DurableEvent } from '../../../core/outbox/durable-event.js';

/**
 * Durable (outbox), decision 0048: the member cancelled in Stripe's customer portal; the
 * membership runs on until `cancelAt` (the paid period's end). Written in the transaction that
 * applies Stripe's `customer.subscription.updated`.
 */
@DurableEvent('billing.cancellation-scheduled')
export class MembershipCancellationScheduledEvent {
  constructor(
    readonly eventId: string,
    readonly membershipId: string,
    readonly userId: string | null,
    readonly cancelAt: string,
  ) {}
}

/** Durable: the member took the cancellation back in the portal before it took effect. */
@DurableEvent('billing.cancellation-withdrawn')
export class MembershipCancellationWithdrawnEvent {
  constructor(
    readonly eventId: string,
    readonly membershipId: string,
    readonly userId: string | null,
  ) {}
}

/**
 * Durable: the subscription ended (`customer.subscription.deleted`): the seat went back to its
 * edition and the locked price is gone (decision 0048). The member number stays on the record.
 */
@DurableEvent('billing.membership-ended')
export class MembershipEndedEvent {
  constructor(
    readonly eventId: string,
    readonly membershipId: string,
    readonly userId: string | null,
    readonly edition: string,
    readonly memberNumber: number,
    readonly seatReleased: boolean,
  ) {}
}
