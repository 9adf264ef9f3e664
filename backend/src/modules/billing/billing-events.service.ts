import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { EventNotReadyError } from './billing.errors.js';
import { EditionStock } from './entities/edition-stock.entity.js';
import { Membership } from './entities/membership.entity.js';
import { Reservation } from './entities/reservation.entity.js';
import { StripeEvent } from './entities/stripe-event.entity.js';
import type { BillingDb } from './entities/index.js';
import { OutboxService } from '../../core/outbox/outbox.service.js';
import { MembershipStartedEvent } from './public/events.js';
import { applyCancellationSchedule, applySubscriptionEnded, rejoin } from './subscription-lifecycle.js';

/** Any constant: serialises member numbering. */
const MEMBER_NUMBER_LOCK = 4_242_002;

type Tx = EntityManager;

const subscriptionStatus = (status: string): Membership['status'] =>
  status === 'active' || status === 'trialing' ? 'active' : status === 'past_due' || status === 'unpaid' || status === 'incomplete' ? 'past_due' : 'cancelled';

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/**
 * Applies each inbox event exactly once: the event row is locked and marked processed in
 * the same transaction as its effect, so duplicates and concurrent workers are no-ops.
 */
@Injectable()
export class BillingEventsService {
  private readonly logger = new Logger('BillingEvents');

  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxService,
  ) {}

  /** Returns true when the effect was applied now, false when it had been already. */
  async process(eventId: string): Promise<boolean> {
    try {
      const staged: string[] = [];
      const applied = await this.em.fork().transactional(async (tx) => {
        const row = await tx.findOne(StripeEvent, { id: eventId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!row || row.processedAt) return false;
        await this.apply(tx, row.payload as unknown as Stripe.Event, staged);
        row.processedAt = new Date();
        row.lastError = null;
        return true;
      });
      await this.outbox.relay(staged);
      return applied;
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await this.em
        .fork()
        .getKysely<BillingDb>()
        .updateTable('stripe_events')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: reason }))
        .where('id', '=', eventId)
        .execute()
        .catch(() => undefined);
      throw error;
    }
  }

  /** `staged`: the outbox messages this application wrote, relayed after the commit. */
  private async apply(tx: Tx, event: Stripe.Event, staged: string[]): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed':
        return this.completed(tx, event.data.object, event.created, staged);
      case 'checkout.session.expired':
        return this.expired(tx, event.data.object);
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.subscriptionChanged(tx, event.data.object, event.type === 'customer.subscription.deleted', event.created, staged);
      case 'invoice.payment_failed':
        return this.paymentFailed(tx, event.data.object, event.created);
      default:
        this.logger.debug(`Ignoring Stripe event ${event.type}`);
    }
  }

  private async reservationFor(tx: Tx, session: Stripe.Checkout.Session): Promise<Reservation | null> {
    const id = session.client_reference_id ?? session.metadata?.reservation_id;
    const byId = id ? await tx.findOne(Reservation, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    return byId ?? (await tx.findOne(Reservation, { checkoutSessionId: session.id }, { lockMode: LockMode.PESSIMISTIC_WRITE }));
  }

  private async completed(tx: Tx, session: Stripe.Checkout.Session, created: number, staged: string[]): Promise<void> {
    const reservation = await this.reservationFor(tx, session);
    if (!reservation) {
      this.logger.warn(`checkout.session.completed for unknown session ${session.id}`);
      return;
    }
    if (reservation.status === 'confirmed' || (await tx.count(Membership, { checkoutSessionId: session.id }))) return;
    const stock = await tx.findOneOrFail(EditionStock, { edition: reservation.edition }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // A released seat that still completed (clock skew past the grace period) is taken back.
    if (reservation.status === 'reserved') stock.reserved -= 1;
    stock.confirmed += 1;
    reservation.status = 'confirmed';
    // A former member buying again (decision 0048): the same row and member number.
    if (await rejoin(tx, this.outbox, reservation, session, created, staged)) return;
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
      statusAt: new Date(created * 1000),
      stripeCustomerId: idOf(session.customer),
      stripeSubscriptionId: idOf(session.subscription),
      checkoutSessionId: session.id,
    });
    await tx.flush();
    staged.push(
      this.outbox.stage(tx, new MembershipStartedEvent(randomUUID(), membership.id, reservation.user.id, membership.edition, membership.memberNumber)),
    );
  }

  private async expired(tx: Tx, session: Stripe.Checkout.Session): Promise<void> {
    const reservation = await this.reservationFor(tx, session);
    if (!reservation || reservation.status !== 'reserved') return;
    const stock = await tx.findOneOrFail(EditionStock, { edition: reservation.edition }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    stock.reserved -= 1;
    reservation.status = 'released';
    await tx.flush();
  }

  private async membershipBySubscription(tx: Tx, subscriptionId: string | null): Promise<Membership> {
    const membership = subscriptionId ? await tx.findOne(Membership, { stripeSubscriptionId: subscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    // Stripe does not promise order: the checkout that creates the membership may come later.
    if (!membership) throw new EventNotReadyError(`No membership for subscription ${subscriptionId ?? '(none)'} yet`);
    return membership;
  }

  private async setStatus(tx: Tx, membership: Membership, status: Membership['status'], created: number): Promise<void> {
    const at = new Date(created * 1000);
    if (at < membership.statusAt) return;
    membership.status = status;
    membership.statusAt = at;
    await tx.flush();
  }

  private async subscriptionChanged(tx: Tx, subscription: Stripe.Subscription, deleted: boolean, created: number, staged: string[]): Promise<void> {
    const membership = await this.membershipBySubscription(tx, subscription.id);
    const newest = new Date(created * 1000) >= membership.statusAt;
    await this.setStatus(tx, membership, deleted ? 'cancelled' : subscriptionStatus(subscription.status), created);
    // Cancelling (decision 0048): the end frees the seat whenever it arrives; a schedule only if newest.
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
    await this.setStatus(tx, membership, 'past_due', created);
  }
}
