import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import type Stripe from 'stripe';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { EventNotReadyError } from './billing.errors.js';
import { EditionStock } from './entities/edition-stock.entity.js';
import { Membership } from './entities/membership.entity.js';
import { Reservation } from './entities/reservation.entity.js';
import { StripeEvent } from './entities/stripe-event.entity.js';
import type { BillingDb } from './entities/index.js';
import { OutboxService } from '../../core/outbox/outbox.service.js';
import { BillingPaymentChangedEvent, MembershipStartedEvent, type BillingPaymentChange } from './public/events.js';
import { LateRefundService } from './late-refund.service.js';
import { StripeGateway } from './stripe.client.js';
import { applyCancellationSchedule, applySubscriptionEnded, rejoin } from './subscription-lifecycle.js';

/** Any constant: serialises member numbering. */
const MEMBER_NUMBER_LOCK = 4_242_002;

type Tx = EntityManager;

/** What one application leaves to do after its commit. */
interface Applied {
  /** Outbox messages to relay. */
  staged: string[];
  /** A late checkout whose automatic refund can be asked of Stripe now. */
  refund?: string;
}

const subscriptionStatus = (status: string): Membership['status'] =>
  status === 'active' || status === 'trialing' ? 'active' : status === 'past_due' || status === 'unpaid' || status === 'incomplete' ? 'past_due' : 'cancelled';

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/**
 * Statuses a subscription or invoice event never changes: a refund is final, a dispute waits for
 * its outcome, a later-settling payment for its async_payment_* event (a SEPA subscription may
 * read `active` or `incomplete` before the money is there).
 */
const HELD_STATUSES: ReadonlySet<Membership['status']> = new Set(['refunded', 'disputed', 'pending_payment']);

/**
 * Applies each inbox event exactly once: the event row is locked and marked processed in
 * the same transaction as its effect, so duplicates and concurrent workers are no-ops. An event
 * that fails `STRIPE_EVENT_ATTEMPTS` times gives up (`failed_at`): it is kept, never applied on its
 * own again, and shows in Salud until an admin retries or dismisses it.
 */
@Injectable()
export class BillingEventsService {
  private readonly logger = new Logger('BillingEvents');

  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxService,
    private readonly lateRefunds: LateRefundService,
    private readonly gateway: StripeGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Returns true when the effect was applied now, false when it had been already (or the event gave up). */
  async process(eventId: string): Promise<boolean> {
    let outcome: Applied = { staged: [] };
    try {
      const applied = await this.em.fork().transactional(async (tx) => {
        const row = await tx.findOne(StripeEvent, { id: eventId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        // A failed or dismissed event waits for an admin: only their retry (which clears it) runs it again.
        if (!row || row.processedAt || row.failedAt || row.dismissedAt) return false;
        outcome = await this.apply(tx, row.id, row.payload as unknown as Stripe.Event);
        row.processedAt = new Date();
        row.lastError = null;
        return true;
      });
      await this.outbox.relay(outcome.staged);
      if (outcome.refund) await this.lateRefunds.refundSafely(outcome.refund);
      return applied;
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await this.em
        .fork()
        .getKysely<BillingDb>()
        .updateTable('stripe_events')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          last_error: reason,
          // The last allowed try: the event gives up and needs an admin.
          failed_at: sql<Date | null>`case when ${eb.ref('attempts')} + 1 >= ${this.config.billing.eventAttempts} then now() else ${eb.ref('failed_at')} end`,
        }))
        .where('id', '=', eventId)
        .where('processed_at', 'is', null)
        .execute()
        .catch(() => undefined);
      throw error;
    }
  }

  private async apply(tx: Tx, eventId: string, event: Stripe.Event): Promise<Applied> {
    const staged: string[] = [];
    const created = event.created;
    switch (event.type) {
      case 'checkout.session.completed':
        return { staged, refund: (await this.completed(tx, event.data.object, created, staged)) ?? undefined };
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.async_payment_failed':
        return {
          staged,
          refund: (await this.asyncPayment(tx, eventId, event.data.object, event.type.endsWith('succeeded'), created, staged)) ?? undefined,
        };
      case 'checkout.session.expired':
        await this.expired(tx, event.data.object);
        return { staged };
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await this.subscriptionChanged(tx, event.data.object, event.type === 'customer.subscription.deleted', created, staged);
        return { staged };
      case 'invoice.payment_failed':
        await this.paymentFailed(tx, event.data.object, created);
        return { staged };
      case 'charge.refunded':
        await this.chargeRefunded(tx, eventId, event.data.object, created, staged);
        return { staged };
      case 'charge.dispute.created':
      case 'charge.dispute.closed':
        await this.dispute(tx, eventId, event.data.object, event.type === 'charge.dispute.closed', created, staged);
        return { staged };
      default:
        this.logger.debug(`Ignoring Stripe event ${event.type}`);
        return { staged };
    }
  }

  private async reservationFor(tx: Tx, session: Stripe.Checkout.Session): Promise<Reservation | null> {
    const id = session.client_reference_id ?? session.metadata?.reservation_id;
    const byId = id ? await tx.findOne(Reservation, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    return byId ?? (await tx.findOne(Reservation, { checkoutSessionId: session.id }, { lockMode: LockMode.PESSIMISTIC_WRITE }));
  }

  private stage(tx: Tx, staged: string[], change: BillingPaymentChange, membership: Membership, details: BillingPaymentChangedEvent['details']): void {
    staged.push(this.outbox.stage(tx, new BillingPaymentChangedEvent(randomUUID(), change, membership.user?.id ?? null, 'membership', membership.id, details)));
  }

  /**
   * A paid (or later-settling) checkout: the seat is confirmed and the membership created. When its
   * seat had been released meanwhile (expired, swept) the checkout takes a free seat of its edition
   * if one is left; otherwise (or when the person is a member already) no membership is made and
   * its payment is refunded automatically. Returns the reservation to refund now, if any.
   */
  private async completed(tx: Tx, session: Stripe.Checkout.Session, created: number, staged: string[]): Promise<string | null> {
    const reservation = await this.reservationFor(tx, session);
    if (!reservation) {
      this.logger.warn(`checkout.session.completed for unknown session ${session.id}`);
      return null;
    }
    if (reservation.status === 'confirmed' || reservation.refundStatus || (await tx.count(Membership, { checkoutSessionId: session.id }))) return null;
    const stock = await tx.findOneOrFail(EditionStock, { edition: reservation.edition }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const unpaid = session.payment_status === 'unpaid';
    const late = reservation.status === 'released';
    // A member already (another checkout of theirs completed first, whether this one is late or
    // not) gets no second row: refunded. A former member whose seat went back (decision 0048) may buy.
    const member = (await tx.count(Membership, { user: reservation.user.id, seatReleasedAt: null })) > 0;
    if (member || (late && stock.reserved + stock.confirmed >= stock.seatLimit)) {
      // Too late: the seat went to someone else (or the person already is a member). Refund, never oversell.
      if (!late) {
        stock.reserved -= 1;
        reservation.status = 'released';
      }
      reservation.refundStatus = unpaid ? 'awaiting_payment' : 'pending';
      reservation.refundReason = member ? 'already_member' : 'sold_out';
      reservation.refundCents = session.amount_total ?? reservation.priceCents;
      reservation.stripeCustomerId = idOf(session.customer);
      reservation.stripeSubscriptionId = idOf(session.subscription);
      reservation.stripeInvoiceId = idOf(session.invoice);
      reservation.checkoutSessionId ??= session.id;
      await tx.flush();
      this.logger.warn(`Checkout ${session.id} completed ${member ? 'for a member already' : 'after its seat was released and none is free'}: refunding it`);
      return unpaid ? null : reservation.id;
    }
    // Not late, or late with a seat of its edition still free: it takes it (under the stock lock).
    if (!late) stock.reserved -= 1;
    stock.confirmed += 1;
    reservation.status = 'confirmed';
    // A former member buying again (decision 0048): the same row and member number.
    if (await rejoin(tx, this.outbox, reservation, session, created, staged)) return null;
    // Both in this transaction: the lock is held until it commits, so no two members get one number.
    const db = tx.getKysely<BillingDb>();
    await db.selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.val(MEMBER_NUMBER_LOCK)]).as('locked')).execute();
    const { next } = await db
      .selectFrom('memberships')
      .select((eb) => eb(eb.fn.coalesce(eb.fn.max('member_number'), eb.lit(0)), '+', 1).as('next'))
      .executeTakeFirstOrThrow();
    const membership = tx.create(Membership, {
      user: reservation.user.id,
      edition: reservation.edition,
      priceCents: reservation.priceCents,
      memberNumber: Number(next),
      // A payment that settles later (SEPA debit…) is not a membership until it does.
      status: unpaid ? 'pending_payment' : 'active',
      statusAt: new Date(created * 1000),
      stripeCustomerId: idOf(session.customer),
      stripeSubscriptionId: idOf(session.subscription),
      checkoutSessionId: session.id,
    });
    await tx.flush();
    staged.push(
      this.outbox.stage(tx, new MembershipStartedEvent(randomUUID(), membership.id, reservation.user.id, membership.edition, membership.memberNumber)),
    );
    return null;
  }

  /**
   * A later-settling payment settled or failed. Succeeded: the pending membership becomes active.
   * Failed: nothing was paid, so the pending membership is removed and its seat freed; the person
   * may buy again. A late checkout waiting for its payment is refunded once it settles.
   */
  private async asyncPayment(
    tx: Tx,
    eventId: string,
    session: Stripe.Checkout.Session,
    succeeded: boolean,
    created: number,
    staged: string[],
  ): Promise<string | null> {
    const membership = await tx.findOne(Membership, { checkoutSessionId: session.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!membership) {
      const reservation = await this.reservationFor(tx, session);
      if (reservation?.refundStatus === 'awaiting_payment') {
        reservation.refundStatus = succeeded ? 'pending' : 'nothing_charged';
        await tx.flush();
        return succeeded ? reservation.id : null;
      }
      if (reservation?.refundStatus) return null;
      // Stripe does not promise order: the completion that creates the membership may come later.
      throw new EventNotReadyError(`No membership for checkout ${session.id} yet`);
    }
    if (membership.status !== 'pending_payment') return null;
    const details = { stripe_event: eventId, edition: membership.edition, member_number: membership.memberNumber };
    if (succeeded) {
      membership.status = 'active';
      membership.statusAt = new Date(Math.max(created * 1000, membership.statusAt.getTime()));
      await tx.flush();
      this.stage(tx, staged, 'payment_settled', membership, details);
      return null;
    }
    // Nothing was paid: the seat goes back and the row stays as a former member's (decision 0048),
    // so a rejoined member's history and number are kept and the person may buy again.
    if (!membership.seatReleasedAt) {
      await this.freeSeat(tx, membership.edition);
      membership.seatReleasedAt = new Date(created * 1000);
    }
    membership.status = 'cancelled';
    membership.statusAt = new Date(Math.max(created * 1000, membership.statusAt.getTime()));
    this.stage(tx, staged, 'payment_failed', membership, details);
    const reservation = await this.reservationFor(tx, session);
    if (reservation) reservation.status = 'released';
    await tx.flush();
    return null;
  }

  private async freeSeat(tx: Tx, edition: string): Promise<void> {
    const stock = await tx.findOneOrFail(EditionStock, { edition }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    stock.confirmed = Math.max(0, stock.confirmed - 1);
  }

  private async expired(tx: Tx, session: Stripe.Checkout.Session): Promise<void> {
    const reservation = await this.reservationFor(tx, session);
    if (!reservation || reservation.status !== 'reserved') return;
    const stock = await tx.findOneOrFail(EditionStock, { edition: reservation.edition }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    stock.reserved -= 1;
    reservation.status = 'released';
    await tx.flush();
  }

  /** True when the Stripe ids belong to a late checkout we refunded ourselves (its events change nothing). */
  private async lateCheckout(tx: Tx, where: { stripeSubscriptionId?: string; stripeCustomerId?: string }): Promise<boolean> {
    return (await tx.count(Reservation, { ...where, refundStatus: { $ne: null } })) > 0;
  }

  private async membershipBySubscription(tx: Tx, subscriptionId: string | null): Promise<Membership | null> {
    const membership = subscriptionId ? await tx.findOne(Membership, { stripeSubscriptionId: subscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (membership) return membership;
    if (subscriptionId && (await this.lateCheckout(tx, { stripeSubscriptionId: subscriptionId }))) return null;
    // Stripe does not promise order: the checkout that creates the membership may come later.
    throw new EventNotReadyError(`No membership for subscription ${subscriptionId ?? '(none)'} yet`);
  }

  private async setStatus(tx: Tx, membership: Membership, status: Membership['status'], created: number): Promise<void> {
    const at = new Date(created * 1000);
    if (at < membership.statusAt || HELD_STATUSES.has(membership.status)) return;
    membership.status = status;
    membership.statusAt = at;
    await tx.flush();
  }

  private async subscriptionChanged(tx: Tx, subscription: Stripe.Subscription, deleted: boolean, created: number, staged: string[]): Promise<void> {
    const membership = await this.membershipBySubscription(tx, subscription.id);
    if (!membership) return; // a late checkout we refunded ourselves
    const newest = new Date(created * 1000) >= membership.statusAt;
    await this.setStatus(tx, membership, deleted ? 'cancelled' : subscriptionStatus(subscription.status), created);
    // Cancelling (decision 0048): the end frees the seat whenever it arrives (once: seat_released_at);
    // a schedule only if newest. A refunded membership's seat was freed by its refund already.
    if (deleted) await applySubscriptionEnded(tx, this.outbox, membership, subscription, staged);
    else if (newest) await applyCancellationSchedule(tx, this.outbox, membership, subscription, staged);
  }

  private async paymentFailed(tx: Tx, invoice: Stripe.Invoice, created: number): Promise<void> {
    const raw = invoice as unknown as {
      subscription?: string | { id: string } | null;
      parent?: { subscription_details?: { subscription?: string | { id: string } } };
    };
    const subscriptionId = idOf(raw.subscription ?? raw.parent?.subscription_details?.subscription ?? null);
    const membership = await this.membershipBySubscription(tx, subscriptionId);
    if (membership) await this.setStatus(tx, membership, 'past_due', created);
  }

  /** The membership paid through this Stripe customer; null for a late checkout we refunded ourselves. */
  private async membershipByCustomer(tx: Tx, customerId: string | null, what: string): Promise<Membership | null> {
    const membership = customerId ? await tx.findOne(Membership, { stripeCustomerId: customerId }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (membership) return membership;
    if (customerId && (await this.lateCheckout(tx, { stripeCustomerId: customerId }))) return null;
    throw new EventNotReadyError(`No membership for the customer of ${what} yet`);
  }

  /** The money went back: the membership ends and its seat goes back on sale (decision 0046). */
  private async refunded(tx: Tx, membership: Membership, cents: number, created: number): Promise<void> {
    membership.refundedCents = cents;
    if (membership.status === 'refunded') return;
    // Once per membership: a subscription that ended (decision 0048) gave its seat back already.
    if (!membership.seatReleasedAt) {
      await this.freeSeat(tx, membership.edition);
      membership.seatReleasedAt = new Date(created * 1000);
    }
    membership.status = 'refunded';
    membership.refundedAt = new Date(created * 1000);
    membership.statusAt = new Date(Math.max(created * 1000, membership.statusAt.getTime()));
  }

  /**
   * `charge.refunded`: a full refund (`refunded: true`) ends the membership and frees its seat; a
   * partial one is recorded (`refunded_cents`) and audited, and the membership stays.
   */
  private async chargeRefunded(tx: Tx, eventId: string, charge: Stripe.Charge, created: number, staged: string[]): Promise<void> {
    if (await this.chargeOfLateCheckout(tx, idOf(charge.customer), charge.id, idOf(charge.payment_intent as string | { id: string } | null))) return;
    const membership = await this.membershipByCustomer(tx, idOf(charge.customer), `charge ${charge.id}`);
    if (!membership) return;
    if (charge.refunded) await this.refunded(tx, membership, charge.amount_refunded, created);
    else membership.refundedCents = charge.amount_refunded;
    await tx.flush();
    this.stage(tx, staged, 'membership_refunded', membership, {
      stripe_event: eventId,
      charge: charge.id,
      full: charge.refunded,
      amount_refunded_cents: charge.amount_refunded,
      amount_cents: charge.amount,
    });
  }

  /**
   * A dispute (chargeback) opened: the membership is `disputed` and keeps its seat until the
   * outcome. Closed: won (or a warning closed) gives the membership back; lost means the money
   * went back, so it ends as `refunded` and its seat goes back on sale.
   */
  private async dispute(tx: Tx, eventId: string, dispute: Stripe.Dispute, closed: boolean, created: number, staged: string[]): Promise<void> {
    const chargeId = idOf(dispute.charge as string | { id: string });
    const customerId = await this.customerOfCharge(dispute.charge);
    const paymentIntent = idOf((dispute as Stripe.Dispute & { payment_intent?: string | { id: string } | null }).payment_intent ?? null);
    if (await this.chargeOfLateCheckout(tx, customerId, chargeId, paymentIntent)) return;
    const membership = await this.membershipByCustomer(tx, customerId, `dispute ${dispute.id}`);
    if (!membership) return;
    membership.disputeId = dispute.id;
    membership.disputeStatus = dispute.status;
    membership.disputeReason = dispute.reason;
    const at = new Date(Math.max(created * 1000, membership.statusAt.getTime()));
    if (!closed) {
      if (membership.status !== 'refunded') {
        membership.status = 'disputed';
        membership.statusAt = at;
      }
    } else if (dispute.status === 'lost') {
      await this.refunded(tx, membership, dispute.amount, created);
    } else if (membership.status === 'disputed') {
      membership.status = 'active';
      membership.statusAt = at;
    }
    await tx.flush();
    this.stage(tx, staged, closed ? 'dispute_closed' : 'membership_disputed', membership, {
      stripe_event: eventId,
      dispute: dispute.id,
      charge: chargeId,
      status: dispute.status,
      reason: dispute.reason,
      amount_cents: dispute.amount,
    });
  }

  /**
   * Whether a charge is the payment of a late checkout we refunded ourselves. Its customer may be a
   * former member's who holds a membership again (decision 0048 reuses the customer), so the
   * customer alone would pin its refund or dispute on that live membership: the charge is compared
   * with the refunds we made. A refund still on its way (no id yet) makes the event wait.
   */
  private async chargeOfLateCheckout(tx: Tx, customerId: string | null, chargeId: string | null, paymentIntent: string | null): Promise<boolean> {
    if (!customerId) return false;
    const ours = await tx.find(Reservation, { stripeCustomerId: customerId, refundStatus: { $ne: null } });
    if (ours.length === 0) return false;
    if (ours.some((reservation) => reservation.refundStatus === 'pending' && !reservation.refundId)) {
      throw new EventNotReadyError(`A refund of a late checkout of customer ${customerId} is still being made`);
    }
    const stripe = await this.gateway.stripe();
    if (!stripe) throw new EventNotReadyError('Payments are not configured: cannot look the refund up');
    for (const reservation of ours) {
      if (!reservation.refundId) continue;
      const refund = await stripe.refunds.retrieve(reservation.refundId);
      if (
        (chargeId && idOf(refund.charge as string | { id: string } | null) === chargeId) ||
        (paymentIntent && idOf(refund.payment_intent as string | { id: string } | null) === paymentIntent)
      ) {
        return true;
      }
    }
    return false;
  }

  /** A dispute names its charge only: Stripe says whose it is. */
  private async customerOfCharge(charge: string | Stripe.Charge): Promise<string | null> {
    if (typeof charge !== 'string') return idOf(charge.customer);
    const stripe = await this.gateway.stripe();
    if (!stripe) throw new EventNotReadyError('Payments are not configured: cannot look the disputed charge up');
    return idOf((await stripe.charges.retrieve(charge)).customer);
  }
}
