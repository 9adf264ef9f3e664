import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import type { OutboxService } from '../../core/outbox/outbox.service.js';
import { EditionStock } from './entities/edition-stock.entity.js';
import { Membership } from './entities/membership.entity.js';
import type { Reservation } from './entities/reservation.entity.js';
import { MembershipStartedEvent } from './public/events.js';
import { MembershipCancellationScheduledEvent, MembershipCancellationWithdrawnEvent, MembershipEndedEvent } from './public/subscription-events.js';

/**
 * What cancelling does (decision 0048, docs/billing.md), applied inside the transaction of the
 * Stripe event, with the membership row locked:
 *
 * - Cancelled in the portal (`customer.subscription.updated` with `cancel_at_period_end` or a
 *   `cancel_at`): nothing is taken away. The member keeps the membership, the seat and the locked
 *   price until the paid period ends; the profile says when ("Se cancelará el …"). Taking it back
 *   in the portal before then (`cancel_at` null again) changes nothing either.
 * - Ended (`customer.subscription.deleted`): the seat goes back to its edition (one more for sale)
 *   and the locked price is gone. The row stays as the billing record with its member number
 *   (never given to anyone else). Buying again is a new purchase of the edition on sale then, on
 *   the same row and number.
 */

/** When the subscription will end, if it was cancelled; Stripe sets `cancel_at` (the period's end for `cancel_at_period_end`). */
export function scheduledEnd(subscription: Stripe.Subscription): Date | null {
  const raw = subscription as Stripe.Subscription & { current_period_end?: number };
  if (typeof subscription.cancel_at === 'number') return new Date(subscription.cancel_at * 1000);
  if (!subscription.cancel_at_period_end) return null;
  // Since API 2025-03-31 the period lives on the items; older versions had it on the subscription.
  const end = subscription.items?.data?.[0]?.current_period_end ?? raw.current_period_end;
  return typeof end === 'number' ? new Date(end * 1000) : null;
}

/** `customer.subscription.updated`: records a cancellation scheduled or taken back (audited). */
export async function applyCancellationSchedule(
  tx: EntityManager,
  outbox: OutboxService,
  membership: Membership,
  subscription: Stripe.Subscription,
  staged: string[],
): Promise<void> {
  if (membership.seatReleasedAt) return; // ended already: a late update changes nothing
  const end = scheduledEnd(subscription);
  const before = membership.cancelAt?.getTime() ?? null;
  if ((end?.getTime() ?? null) === before) return;
  membership.cancelAt = end;
  await tx.flush();
  const userId = membership.user?.id ?? null;
  staged.push(
    end
      ? outbox.stage(tx, new MembershipCancellationScheduledEvent(randomUUID(), membership.id, userId, end.toISOString()))
      : outbox.stage(tx, new MembershipCancellationWithdrawnEvent(randomUUID(), membership.id, userId)),
  );
}

/** `customer.subscription.deleted`: the seat goes back to its edition, once (audited). */
export async function applySubscriptionEnded(
  tx: EntityManager,
  outbox: OutboxService,
  membership: Membership,
  subscription: Stripe.Subscription,
  staged: string[],
): Promise<void> {
  if (membership.seatReleasedAt) return;
  const stock = await tx.findOneOrFail(EditionStock, { edition: membership.edition }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  stock.confirmed = Math.max(0, stock.confirmed - 1);
  const endedAt = typeof subscription.ended_at === 'number' ? new Date(subscription.ended_at * 1000) : new Date();
  membership.seatReleasedAt = endedAt;
  membership.cancelAt = endedAt;
  await tx.flush();
  staged.push(
    outbox.stage(tx, new MembershipEndedEvent(randomUUID(), membership.id, membership.user?.id ?? null, membership.edition, membership.memberNumber, true)),
  );
}

/**
 * A former member (seat released) completed a new checkout: the same row takes the new edition,
 * its price and the new subscription, and keeps the member number. The seat was already counted by
 * the caller. Returns false when the person holds no released membership (a first purchase).
 */
export async function rejoin(
  tx: EntityManager,
  outbox: OutboxService,
  reservation: Reservation,
  session: Stripe.Checkout.Session,
  created: number,
  staged: string[],
): Promise<boolean> {
  const former = await tx.findOne(Membership, { user: reservation.user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!former?.seatReleasedAt) return false;
  const idOf = (value: string | { id: string } | null) => (typeof value === 'string' ? value : (value?.id ?? null));
  Object.assign(former, {
    edition: reservation.edition,
    priceCents: reservation.priceCents,
    // A payment that settles later (SEPA debit…) is not a membership until it does (decision 0046).
    status: session.payment_status === 'unpaid' ? 'pending_payment' : 'active',
    statusAt: new Date(created * 1000),
    stripeCustomerId: idOf(session.customer) ?? former.stripeCustomerId,
    stripeSubscriptionId: idOf(session.subscription),
    checkoutSessionId: session.id,
    cancelAt: null,
    seatReleasedAt: null,
  });
  await tx.flush();
  staged.push(outbox.stage(tx, new MembershipStartedEvent(randomUUID(), former.id, reservation.user.id, former.edition, former.memberNumber)));
  return true;
}
