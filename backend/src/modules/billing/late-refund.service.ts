import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { OutboxService } from '../../core/outbox/outbox.service.js';
import { Reservation } from './entities/reservation.entity.js';
import { BillingPaymentChangedEvent } from './public/events.js';
import { StripeGateway } from './stripe.client.js';

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/** Stripe's answer when the subscription is gone already (cancelled before, by us or in the dashboard). */
const isMissing = (error: unknown) => (error as { code?: string; statusCode?: number })?.code === 'resource_missing';

/**
 * The automatic refund of a checkout that completed after its seat was gone (decision 0045):
 * cancels its subscription (no further month is charged) and refunds its first invoice's payment,
 * both with idempotency keys of the reservation, so a retry after a crash or a Stripe error never
 * refunds twice. The reservation moves from `pending` to `refunded` only once Stripe answered; the
 * sweeper retries whatever is still `pending`.
 */
@Injectable()
export class LateRefundService {
  private readonly logger = new Logger('LateRefund');

  constructor(
    private readonly em: EntityManager,
    private readonly gateway: StripeGateway,
    private readonly outbox: OutboxService,
  ) {}

  /** Never throws: a failure is logged and left `pending` for the sweeper. */
  async refundSafely(reservationId: string): Promise<boolean> {
    try {
      return await this.refund(reservationId);
    } catch (error) {
      this.logger.warn(
        `Could not refund late checkout ${reservationId} yet (${error instanceof Error ? error.message : String(error)}); the sweeper will retry.`,
      );
      return false;
    }
  }

  /** True when the refund was confirmed now. */
  async refund(reservationId: string): Promise<boolean> {
    const reservation = await this.em.fork().findOne(Reservation, { id: reservationId });
    if (!reservation || reservation.refundStatus !== 'pending') return false;
    const stripe = await this.gateway.stripe();
    if (!stripe) throw new Error('payments are not configured');

    if (reservation.stripeSubscriptionId) {
      try {
        await stripe.subscriptions.cancel(reservation.stripeSubscriptionId, {}, { idempotencyKey: `late-cancel-${reservation.id}` });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    const invoiceId =
      reservation.stripeInvoiceId ??
      (reservation.stripeSubscriptionId ? idOf((await stripe.subscriptions.retrieve(reservation.stripeSubscriptionId)).latest_invoice) : null);
    if (!invoiceId) throw new Error(`late checkout ${reservation.id} has no invoice to refund`);
    const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });
    const payment = invoice.payments?.data.find((candidate: Stripe.InvoicePayment) => candidate.status === 'paid');
    const paymentIntent = idOf(payment?.payment.payment_intent ?? null);
    if (!paymentIntent) throw new Error(`invoice ${invoiceId} has no paid payment to refund yet`);
    const refund = await stripe.refunds.create(
      { payment_intent: paymentIntent, reason: 'requested_by_customer', metadata: { reservation_id: reservation.id, cause: 'seat_no_longer_available' } },
      { idempotencyKey: `late-refund-${reservation.id}` },
    );

    const staged: string[] = [];
    const done = await this.em.fork().transactional(async (tx) => {
      const row = await tx.findOne(Reservation, { id: reservation.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row || row.refundStatus !== 'pending') return false;
      row.refundStatus = 'refunded';
      row.refundId = refund.id;
      row.refundCents = refund.amount;
      row.refundedAt = new Date();
      await tx.flush();
      staged.push(
        this.outbox.stage(
          tx,
          new BillingPaymentChangedEvent(randomUUID(), 'late_checkout_refunded', row.user.id, 'seat_reservation', row.id, {
            edition: row.edition,
            refund: refund.id,
            amount_cents: refund.amount,
            reason: row.refundReason ?? null,
            checkout_session: row.checkoutSessionId ?? null,
          }),
        ),
      );
      return true;
    });
    await this.outbox.relay(staged);
    return done;
  }

  /** Late checkouts whose refund is still to be confirmed (the sweeper's list). */
  async pendingIds(limit = 100): Promise<string[]> {
    const rows = await this.em.fork().find(Reservation, { refundStatus: 'pending' }, { limit, fields: ['id'] });
    return rows.map((row) => row.id);
  }
}
