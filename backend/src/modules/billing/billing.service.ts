import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { CreateRequestContext } from '@mikro-orm/decorators/legacy';
import { EntityManager, LockMode, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { CheckoutResponse, Editions, LateRefund, Membership as MembershipDto, StripeEventAttention } from '@life/contracts';
import type { Queue } from 'bullmq';
import { sql } from 'kysely';
import type Stripe from 'stripe';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { addOnce } from '../../core/queue/jobs.js';
import { BillingError, BillingErrorCode } from './billing.errors.js';
import { EDITIONS, editionById } from './editions.js';
import { EditionStock } from './entities/edition-stock.entity.js';
import { Membership } from './entities/membership.entity.js';
import { Reservation } from './entities/reservation.entity.js';
import { StripeEvent } from './entities/stripe-event.entity.js';
import type { BillingDb } from './entities/index.js';
import { STRIPE_EVENTS_QUEUE, type StripeEventJob } from './jobs/stripe-events.job.js';
import { StripeGateway } from './stripe.client.js';
import { within } from '../../core/util/within.js';
import { msg } from '../../core/i18n/messages.js';

const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * Stripe's webhook tolerance (seconds). The `stripe` library only refuses signatures older than
 * this; we also refuse those dated more than this in the future (decision 0045).
 */
export const WEBHOOK_TOLERANCE_S = 300;

/**
 * The `t=` of a Stripe-Signature header (seconds), or null. The last one, as the `stripe`
 * library reads it (it verifies the signature against that one); more than one is refused.
 */
function signedAt(header: string): number | null {
  const stamps = header
    .split(',')
    .map((part) => part.split('=', 2))
    .filter(([key]) => key?.trim() === 't')
    .map(([, value]) => value?.trim() ?? '');
  if (stamps.length !== 1 || !/^\d+$/.test(stamps[0]!)) return null;
  return Number(stamps[0]);
}

export function toMembershipDto(membership: Membership): MembershipDto {
  const edition = editionById(membership.edition)!;
  return {
    edition: edition.id,
    edition_name: edition.name,
    price_cents: membership.priceCents,
    currency: 'eur',
    member_number: membership.memberNumber,
    status: membership.status,
    since: membership.createdAt.toISOString(),
    cancel_at: membership.cancelAt ? membership.cancelAt.toISOString() : null,
  };
}

/**
 * Editions, seats and checkout. Seats are counted in `edition_stock` rows locked with
 * SELECT … FOR UPDATE, so concurrent checkouts can never oversell.
 */
@Injectable()
export class BillingService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly em: EntityManager,
    private readonly gateway: StripeGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(STRIPE_EVENTS_QUEUE) private readonly queue: Queue<StripeEventJob>,
  ) {
    // Connection errors are expected while Redis is away; the inbox and the sweeper cover them.
    this.queue.on('error', (error) => this.logger.debug(`Queue connection: ${error.message}`));
  }

  /** Creates the stock rows; the limits follow EDITION_LIMITS at every start. */
  @CreateRequestContext()
  async onApplicationBootstrap(): Promise<void> {
    const limits = this.config.billing.editionLimits;
    for (const [position, edition] of EDITIONS.entries()) {
      await this.em
        .getKysely<BillingDb>()
        .insertInto('edition_stock')
        .values({ edition: edition.id, position, seat_limit: limits[position]!, reserved: 0, confirmed: 0 })
        .onConflict((oc) => oc.column('edition').doUpdateSet((eb) => ({ seat_limit: eb.ref('excluded.seat_limit'), position: eb.ref('excluded.position') })))
        .execute();
    }
  }

  get paymentsEnabled(): boolean {
    return this.gateway.enabled;
  }

  async editions(): Promise<Editions> {
    const stock = await this.em.find(EditionStock, {}, { orderBy: { position: 'asc' } });
    const onSale = stock.find((row) => row.reserved + row.confirmed < row.seatLimit)?.edition;
    return {
      payments_enabled: this.paymentsEnabled,
      sold_out: onSale === undefined,
      editions: stock.map((row) => {
        const edition = editionById(row.edition)!;
        return {
          id: edition.id,
          name: edition.name,
          price_cents: edition.priceCents,
          currency: 'eur' as const,
          limit: row.seatLimit,
          seats_left: Math.max(0, row.seatLimit - row.reserved - row.confirmed),
          on_sale: row.edition === onSale,
        };
      }),
    };
  }

  async membershipOf(userId: string): Promise<MembershipDto | null> {
    const membership = await this.em.findOne(Membership, { user: userId });
    return membership ? toMembershipDto(membership) : null;
  }

  /** The person's latest checkout that completed too late for a seat (its automatic refund), if any. */
  async lateRefundOf(userId: string): Promise<LateRefund | null> {
    const [row] = await this.em.find(Reservation, { user: userId, refundStatus: { $ne: null } }, { orderBy: { updatedAt: 'desc' }, limit: 1 });
    if (!row?.refundStatus) return null;
    return {
      status: row.refundStatus,
      reason: row.refundReason ?? 'sold_out',
      edition: row.edition as LateRefund['edition'],
      amount_cents: row.refundCents ?? null,
      refunded_at: row.refundedAt?.toISOString() ?? null,
    };
  }

  private async openReservation(userId: string): Promise<Reservation | null> {
    return this.em.fork().findOne(Reservation, { user: userId, status: 'reserved', expiresAt: { $gt: new Date() }, checkoutUrl: { $ne: null } });
  }

  /** Reserves a seat of the edition on sale, atomically, or says why not. */
  private async reserve(userId: string): Promise<Reservation> {
    return this.em.fork().transactional(async (tx) => {
      const stock = await tx.find(EditionStock, {}, { orderBy: { position: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE });
      const row = stock.find((candidate) => candidate.reserved + candidate.confirmed < candidate.seatLimit);
      if (!row) throw new BillingError(BillingErrorCode.SoldOut, msg('billing.soldOut'));
      row.reserved += 1;
      const edition = editionById(row.edition)!;
      const reservation = tx.create(Reservation, {
        user: userId,
        edition: edition.id,
        priceCents: edition.priceCents,
        expiresAt: new Date(Date.now() + this.config.billing.checkoutTtlMinutes * 60_000),
      });
      await tx.flush();
      return reservation;
    });
  }

  /** Gives a held seat back (checkout failed, expired or abandoned). Idempotent. */
  async release(reservationId: string): Promise<boolean> {
    return this.em.fork().transactional(async (tx) => {
      const reservation = await tx.findOne(Reservation, { id: reservationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!reservation || reservation.status !== 'reserved') return false;
      const stock = await tx.findOneOrFail(EditionStock, { edition: reservation.edition }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      stock.reserved -= 1;
      reservation.status = 'released';
      await tx.flush();
      return true;
    });
  }

  async startCheckout(user: { id: string; email: string }): Promise<CheckoutResponse> {
    const stripe = await this.gateway.stripe();
    if (!stripe) throw new BillingError(BillingErrorCode.PaymentsNotConfigured, msg('billing.notConfigured'));
    // A member holds a seat; a former member whose subscription ended (seat released) may buy again (decision 0048).
    const former = await this.em.fork().findOne(Membership, { user: user.id });
    if (former && !former.seatReleasedAt) throw new BillingError(BillingErrorCode.AlreadyMember, msg('billing.alreadyOwned'));
    const open = await this.openReservation(user.id);
    if (open) return { url: open.checkoutUrl!, sessionId: open.checkoutSessionId!, edition: open.edition as CheckoutResponse['edition'] };

    let reservation: Reservation;
    try {
      reservation = await this.reserve(user.id);
    } catch (error) {
      // A concurrent request of the same person won the race: reuse its checkout when it is ready.
      if (error instanceof UniqueConstraintViolationException) {
        const other = await this.openReservation(user.id);
        if (other) return { url: other.checkoutUrl!, sessionId: other.checkoutSessionId!, edition: other.edition as CheckoutResponse['edition'] };
        throw new BillingError(BillingErrorCode.PaymentProviderError, msg('billing.checkoutInProgress'));
      }
      throw error;
    }

    const edition = editionById(reservation.edition)!;
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'eur',
                unit_amount: edition.priceCents,
                recurring: { interval: 'month' },
                product_data: { name: `Life ${edition.name}` },
                ...this.taxedPrice(),
              },
            },
          ],
          client_reference_id: reservation.id,
          ...this.customerParams(user.email, former?.stripeCustomerId ?? null),
          ...this.taxParams(former?.stripeCustomerId ?? null),
          expires_at: Math.floor(reservation.expiresAt.getTime() / 1000),
          success_url: `${this.config.appUrl}/profile?checkout=success`,
          cancel_url: `${this.config.appUrl}/?checkout=cancelled`,
          metadata: { reservation_id: reservation.id, edition: edition.id, user_id: user.id },
          subscription_data: { metadata: { reservation_id: reservation.id, edition: edition.id, user_id: user.id } },
        },
        { idempotencyKey: `checkout-${reservation.id}` },
      );
    } catch (error) {
      await this.release(reservation.id);
      this.logger.warn(`Stripe refused a checkout: ${error instanceof Error ? error.message : String(error)}`);
      throw new BillingError(BillingErrorCode.PaymentProviderError, msg('billing.providerUnavailable'));
    }
    await this.em.fork().nativeUpdate(Reservation, { id: reservation.id }, { checkoutSessionId: session.id, checkoutUrl: session.url ?? null });
    return { ...(session.url ? { url: session.url } : {}), sessionId: session.id, edition: edition.id };
  }

  /**
   * STRIPE_TAX=on (decision 0047): the edition's price is VAT included (`inclusive`: the member pays
   * the advertised 2, 3 or 4 €, Stripe splits out the VAT on the invoice).
   */
  private taxedPrice(): Pick<Stripe.Checkout.SessionCreateParams.LineItem.PriceData, 'tax_behavior'> {
    return this.config.stripe.tax ? { tax_behavior: 'inclusive' } : {};
  }

  /** A former member buying again keeps their Stripe customer (one invoice history); else Checkout creates one. */
  private customerParams(email: string, customerId: string | null): Pick<Stripe.Checkout.SessionCreateParams, 'customer' | 'customer_email'> {
    return customerId ? { customer: customerId } : { customer_email: email };
  }

  /**
   * STRIPE_TAX=on: Stripe Tax computes the VAT from the billing address (required), and a
   * business may enter its VAT number. With an existing customer Stripe requires
   * `customer_update` so the address and business name entered are saved on it.
   */
  private taxParams(
    customerId: string | null,
  ): Pick<Stripe.Checkout.SessionCreateParams, 'automatic_tax' | 'tax_id_collection' | 'billing_address_collection' | 'customer_update'> {
    if (!this.config.stripe.tax) return {};
    return {
      automatic_tax: { enabled: true },
      tax_id_collection: { enabled: true },
      billing_address_collection: 'required',
      ...(customerId ? { customer_update: { address: 'auto', name: 'auto' } } : {}),
    };
  }

  /** Verifies the signature on the raw body, stores the event, then queues it. */
  async receiveWebhook(rawBody: Buffer | undefined, signature: string | undefined): Promise<void> {
    const stripe = await this.gateway.stripe();
    const secret = await this.gateway.webhookSecret();
    if (!stripe || !secret) throw new BillingError(BillingErrorCode.PaymentsNotConfigured, msg('billing.notConfigured'));
    let event: Stripe.Event;
    try {
      if (!rawBody || !signature) throw new Error('missing body or signature');
      event = stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_S);
      // The library checks the past only: a signature dated in the future is refused too.
      const at = signedAt(signature);
      if (at === null || at - Math.floor(Date.now() / 1000) > WEBHOOK_TOLERANCE_S) throw new Error('timestamp outside the tolerance zone');
    } catch {
      throw new BillingError(BillingErrorCode.InvalidSignature, msg('billing.badSignature'));
    }
    await this.em
      .fork()
      .getKysely<BillingDb>()
      .insertInto('stripe_events')
      .values({
        id: event.id,
        type: event.type,
        payload: JSON.stringify(event),
        created_at: sql<Date>`to_timestamp(${event.created})`,
        received_at: sql<Date>`now()`,
        attempts: 0,
      })
      // A redelivery of a stored event changes nothing.
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await this.enqueue(event.id);
  }

  /** Best effort: the sweeper re-queues whatever could not be queued now (e.g. Redis away). */
  async enqueue(eventId: string): Promise<boolean> {
    try {
      // An event that failed every attempt is not retried by the sweeper: it stays failed in
      // Salud, as needing attention, until an admin retries or dismisses it.
      const { eventAttempts, eventBackoffMs } = this.config.billing;
      const outcome = await within(
        addOnce(this.queue, 'stripe-event', { eventId }, { jobId: eventId, attempts: eventAttempts, backoff: { type: 'exponential', delay: eventBackoffMs } }),
        ENQUEUE_TIMEOUT_MS,
      );
      return outcome !== 'failed';
    } catch (error) {
      this.logger.warn(
        `Stored Stripe event ${eventId} but could not queue it yet (${error instanceof Error ? error.message : String(error)}); the sweeper will.`,
      );
      return false;
    }
  }

  /** Unprocessed inbox rows older than `olderThanMs`, oldest first; never one that gave up or was dismissed. */
  async pendingEventIds(olderThanMs: number, limit = 500): Promise<string[]> {
    const rows = await this.em
      .fork()
      .find(
        StripeEvent,
        { processedAt: null, failedAt: null, dismissedAt: null, receivedAt: { $lt: new Date(Date.now() - olderThanMs) } },
        { orderBy: { receivedAt: 'asc' }, limit, fields: ['id'] },
      );
    return rows.map((row) => row.id);
  }

  /** Salud: events that gave up (failed, not processed, not dismissed), newest failure first. */
  async eventsNeedingAttention(limit = 50): Promise<StripeEventAttention[]> {
    const rows = await this.em
      .fork()
      .find(StripeEvent, { processedAt: null, dismissedAt: null, failedAt: { $ne: null } }, { orderBy: { failedAt: 'desc' }, limit });
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      receivedAt: row.receivedAt.toISOString(),
      failedAt: row.failedAt!.toISOString(),
      attempts: row.attempts,
      lastError: row.lastError ?? null,
    }));
  }

  /** The failed event, locked, or why an admin cannot act on it (404, 409). */
  private async failedEvent(tx: EntityManager, eventId: string): Promise<StripeEvent> {
    const row = await tx.findOne(StripeEvent, { id: eventId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) throw new BillingError(BillingErrorCode.EventNotFound, msg('billing.eventNotFound', { id: eventId }));
    if (row.processedAt || !row.failedAt || row.dismissedAt)
      throw new BillingError(BillingErrorCode.EventNotFailed, msg('billing.eventNotFailed', { id: eventId }));
    return row;
  }

  /** Its failed job (if still in Redis) goes, so the event can be queued afresh or stays gone. */
  private async dropFailedJob(eventId: string): Promise<void> {
    try {
      const job = await within(this.queue.getJob(eventId), ENQUEUE_TIMEOUT_MS);
      if (job && (await job.isFailed())) await job.remove();
    } catch (error) {
      this.logger.warn(`Could not remove the failed job of Stripe event ${eventId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Admin (Salud): the event gets its attempts again and is queued now. */
  async retryEvent(eventId: string): Promise<void> {
    await this.em.fork().transactional(async (tx) => {
      const row = await this.failedEvent(tx, eventId);
      row.failedAt = null;
      row.attempts = 0;
    });
    await this.dropFailedJob(eventId);
    // If Redis is away now, the sweeper queues it (it no longer gave up).
    await this.enqueue(eventId);
  }

  /** Admin (Salud): the event is kept, never applied, and no longer needs attention. */
  async dismissEvent(eventId: string): Promise<void> {
    await this.em.fork().transactional(async (tx) => {
      const row = await this.failedEvent(tx, eventId);
      row.dismissedAt = new Date();
    });
    await this.dropFailedJob(eventId);
  }

  /** Reservations whose checkout can no longer complete (expired plus a grace period). */
  async expiredReservationIds(graceMs: number): Promise<string[]> {
    const rows = await this.em
      .fork()
      .find(Reservation, { status: 'reserved', expiresAt: { $lt: new Date(Date.now() - graceMs) } }, { limit: 500, fields: ['id'] });
    return rows.map((row) => row.id);
  }
}
