import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { BillingService } from './billing.service.js';
import type { BillingDb } from './entities/index.js';
import { StripeGateway } from './stripe.client.js';

/**
 * Years an erased member's anonymised billing record is kept: the Spanish Commercial Code
 * (art. 30) keeps accounting records and their supporting documents six years; the tax
 * limitation period (Ley General Tributaria art. 66) is four. See docs/data-rights.md.
 */
export const BILLING_RECORD_YEARS = 6;

const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
      ? (value as { id: string }).id
      : null;

/** The fields of a Stripe object our billing needs (ids, amounts, states); never a name, e-mail or address. */
const KEPT_OBJECT_FIELDS = [
  'id',
  'object',
  'status',
  'mode',
  'client_reference_id',
  'amount_total',
  'amount_paid',
  'amount_due',
  'currency',
  'created',
  'current_period_end',
  'cancel_at_period_end',
  'canceled_at',
  'cancel_at',
  'ended_at',
] as const;

/** A Stripe event reduced to what the billing record needs: applying it still works, the person is gone. */
export function scrubStripeEvent(payload: Record<string, unknown>): Record<string, unknown> {
  const data = (payload.data ?? {}) as { object?: Record<string, unknown> };
  const object = data.object ?? {};
  const kept: Record<string, unknown> = {};
  for (const field of KEPT_OBJECT_FIELDS) if (field in object) kept[field] = object[field];
  if ('customer' in object) kept.customer = idOf(object.customer);
  if ('subscription' in object) kept.subscription = idOf(object.subscription);
  const parent = object.parent as { subscription_details?: { subscription?: unknown } } | undefined;
  if (parent?.subscription_details) kept.parent = { subscription_details: { subscription: idOf(parent.subscription_details.subscription) } };
  const metadata = object.metadata as Record<string, unknown> | undefined;
  if (metadata) kept.metadata = Object.fromEntries(Object.entries(metadata).filter(([key]) => key === 'reservation_id' || key === 'edition'));
  return {
    id: payload.id,
    object: 'event',
    type: payload.type,
    created: payload.created,
    livemode: payload.livemode,
    api_version: payload.api_version,
    data: { object: kept },
    scrubbed: true,
  };
}

const isMissingAtStripe = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  ((error as { code?: string }).code === 'resource_missing' || (error as { statusCode?: number }).statusCode === 404);

/**
 * What an account erasure means for billing (docs/data-rights.md): open checkouts end, the
 * subscription is cancelled at Stripe (the person must not be charged for an account they
 * deleted), and the membership stays as an anonymised billing record.
 */
@Injectable()
export class BillingPrivacyService {
  private readonly logger = new Logger('BillingPrivacy');

  constructor(
    private readonly em: EntityManager,
    private readonly billing: BillingService,
    private readonly gateway: StripeGateway,
  ) {}

  /**
   * Safe to run again. Throws when Stripe could not cancel the subscription (the erasure job
   * retries): stopping the charges is not optional.
   */
  async forgetMember(userId: string): Promise<{ membershipKept: boolean; subscriptionCancelled: boolean }> {
    const db = this.em.getKysely<BillingDb>();
    const stripe = await this.gateway.stripe();
    const reservations = await db.selectFrom('seat_reservations').select(['id', 'status', 'checkout_session_id']).where('user_id', '=', userId).execute();
    for (const reservation of reservations.filter((row) => row.status === 'reserved')) {
      // So a checkout page left open cannot charge someone who no longer has an account.
      if (reservation.checkout_session_id && stripe) {
        await stripe.checkout.sessions.expire(reservation.checkout_session_id).catch((error: unknown) => {
          this.logger.warn(`Could not expire checkout ${reservation.checkout_session_id}: ${error instanceof Error ? error.message : String(error)}`);
        });
      }
      await this.billing.release(reservation.id);
    }

    const membership = await db
      .selectFrom('memberships')
      .select(['id', 'status', 'stripe_customer_id', 'stripe_subscription_id', 'checkout_session_id'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    let subscriptionCancelled = false;
    if (membership?.stripe_subscription_id && membership.status !== 'cancelled') {
      if (!stripe) {
        this.logger.warn(`Membership ${membership.id} has a Stripe subscription but payments are not configured here: cancel it in Stripe's dashboard.`);
      } else {
        try {
          await stripe.subscriptions.cancel(membership.stripe_subscription_id);
        } catch (error) {
          if (!isMissingAtStripe(error)) throw error;
        }
        subscriptionCancelled = true;
        // Newer than any event about the subscription so far: a late 'updated' cannot revive it.
        await db
          .updateTable('memberships')
          .set((eb) => ({ status: 'cancelled', status_at: eb.fn<Date>('greatest', ['status_at', sql<Date>`now()`]) }))
          .where('id', '=', membership.id)
          .execute();
      }
    }
    if (membership) {
      await db
        .updateTable('memberships')
        .set((eb) => ({ user_erased_at: eb.fn.coalesce('user_erased_at', sql<Date>`now()`) }))
        .where('id', '=', membership.id)
        .execute();
    }

    await this.scrubEvents(userId, {
      sessions: [...reservations.map((row) => row.checkout_session_id), membership?.checkout_session_id].filter((id): id is string => !!id),
      reservations: reservations.map((row) => row.id),
      subscriptions: membership?.stripe_subscription_id ? [membership.stripe_subscription_id] : [],
      customers: membership?.stripe_customer_id ? [membership.stripe_customer_id] : [],
    });
    return { membershipKept: !!membership, subscriptionCancelled };
  }

  /** The person's name, e-mail and address out of every stored Stripe event about them. */
  private async scrubEvents(userId: string, ids: { sessions: string[]; reservations: string[]; subscriptions: string[]; customers: string[] }): Promise<void> {
    // Raw SQL: jsonb path operators over stored Stripe payloads, unreadable in the query builder.
    const rows = await this.em.getConnection().execute<{ id: string; payload: Record<string, unknown> }[]>(
      `select id, payload from stripe_events where not coalesce((payload->>'scrubbed')::boolean, false) and (
         payload->'data'->'object'->>'id' in (select jsonb_array_elements_text(?::jsonb))
         or payload->'data'->'object'->>'client_reference_id' in (select jsonb_array_elements_text(?::jsonb))
         or payload->'data'->'object'->>'subscription' in (select jsonb_array_elements_text(?::jsonb))
         or payload->'data'->'object'->>'customer' in (select jsonb_array_elements_text(?::jsonb))
         or payload->'data'->'object'->'metadata'->>'user_id' = ?)`,
      [
        JSON.stringify([...ids.sessions, ...ids.subscriptions]),
        JSON.stringify(ids.reservations),
        JSON.stringify(ids.subscriptions),
        JSON.stringify(ids.customers),
        userId,
      ],
    );
    const db = this.em.getKysely<BillingDb>();
    for (const row of rows) {
      await db
        .updateTable('stripe_events')
        .set({ payload: JSON.stringify(scrubStripeEvent(row.payload)) })
        .where('id', '=', row.id)
        .execute();
    }
  }

  /** Anonymised billing records past their legal keeping period (sweeper). */
  async purgeExpiredRecords(): Promise<number> {
    const rows = await this.em
      .getKysely<BillingDb>()
      .deleteFrom('memberships')
      .where('user_id', 'is', null)
      .where('user_erased_at', '<', sql<Date>`now() - make_interval(years => ${BILLING_RECORD_YEARS})`)
      .returning('id')
      .execute();
    return rows.length;
  }
}
