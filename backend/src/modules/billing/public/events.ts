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

/** What happened to a payment after the checkout (issue 17): each becomes the audit action `billing.<change>`. */
export const BILLING_PAYMENT_CHANGES = [
  'membership_refunded',
  'membership_disputed',
  'dispute_closed',
  'payment_settled',
  'payment_failed',
  'late_checkout_refunded',
] as const;
export type BillingPaymentChange = (typeof BILLING_PAYMENT_CHANGES)[number];

/**
 * Durable (outbox): a membership's payment was refunded, disputed, settled or failed, or a checkout
 * that completed too late for a seat was refunded. Written in the transaction that changed the row,
 * so the audit log hears of it once. `eventId` derives from the Stripe event (or the refund), so a
 * repeat is recognisable. No personal data beyond the ids.
 */
@DurableEvent('billing.payment-changed')
export class BillingPaymentChangedEvent {
  constructor(
    readonly eventId: string,
    readonly change: BillingPaymentChange,
    readonly userId: string | null,
    readonly targetType: 'membership' | 'seat_reservation',
    readonly targetId: string,
    readonly details: Record<string, string | number | boolean | null>,
  ) {}
}
