import { DurableEvent } from '../../../core/outbox/durable-event.js';

/**
 * Durable (outbox): a completed checkout made its person a member. Written in the same
 * transaction as the membership (which the Stripe event's application creates), so whoever
 * reacts (today the audit log) hears of it even if the worker dies right after. No personal data
 * beyond the ids. `eventId` makes a repeated delivery recognisable.
 */
@DurableEvent('billing.membership-started')
export class MembershipStartedEvent {
  constructor(
    readonly eventId: string,
    readonly membershipId: string,
    readonly userId: string,
    readonly edition: string,
    readonly memberNumber: number,
  ) {}
}
