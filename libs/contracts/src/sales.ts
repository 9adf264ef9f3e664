import { z } from 'zod';
import { EDITION_IDS, MEMBERSHIP_STATUSES } from './billing.js';

/**
 * The company's sales view (issue 17, admin panel "Ventas"; docs/billing.md "Sales view").
 * Money is in cents of euro. Read-only: nothing here changes a membership or an event.
 */

export const SALES_MEMBERS_PAGE_SIZE_MAX = 100;

export const SalesEditionSchema = z
  .object({
    id: z.enum(EDITION_IDS),
    name: z.string(),
    /** The edition's monthly price today, in cents (members keep the one locked at purchase). */
    price_cents: z.number().int(),
    seat_limit: z.number().int(),
    /** Confirmed seats: paid checkouts (every membership, whatever its status now). */
    sold: z.number().int(),
    /** Seats held by open checkouts. */
    reserved: z.number().int(),
    /** seat_limit − sold − reserved, never below 0. */
    free: z.number().int(),
    /** Memberships by status (every status present, zero when none). */
    members_by_status: z.record(z.enum(MEMBERSHIP_STATUSES), z.number().int()),
    /** "Ingresos mensuales (MRR)": the sum of the locked monthly price of the `active` members. */
    mrr_cents: z.number().int(),
    /**
     * "Cobrado al contratar": the sum of `amount_total` of the applied `checkout.session.completed`
     * events (each member's first month), before refunds. Monthly renewals are not in it.
     */
    collected_at_checkout_cents: z.number().int(),
  })
  .meta({ id: 'SalesEdition' });
export type SalesEdition = z.infer<typeof SalesEditionSchema>;

export const SalesSummarySchema = z
  .object({
    currency: z.literal('eur'),
    editions: z.array(SalesEditionSchema),
    totals: z.object({
      seat_limit: z.number().int(),
      sold: z.number().int(),
      reserved: z.number().int(),
      free: z.number().int(),
      mrr_cents: z.number().int(),
      collected_at_checkout_cents: z.number().int(),
    }),
    /** Refunded or disputed memberships, and Stripe events needing attention: counts for the section's badges. */
    refunds_and_disputes: z.number().int(),
    events_needing_attention: z.number().int(),
  })
  .meta({ id: 'SalesSummary' });
export type SalesSummary = z.infer<typeof SalesSummarySchema>;

const positiveInt = (max: number) => z.coerce.number().int().min(1).max(max);

/** Filters of the members list and of its CSV export. `q`: part of an e-mail, or a member number. */
export const SalesMembersFilterSchema = z
  .object({
    edition: z.enum(EDITION_IDS).optional(),
    status: z.enum(MEMBERSHIP_STATUSES).optional(),
    q: z.string().trim().max(200).optional(),
  })
  .strict();
export type SalesMembersFilter = z.infer<typeof SalesMembersFilterSchema>;

export const SalesMembersQuerySchema = SalesMembersFilterSchema.extend({
  page: positiveInt(100_000).default(1),
  page_size: positiveInt(SALES_MEMBERS_PAGE_SIZE_MAX).default(25),
}).strict();
export type SalesMembersParams = z.infer<typeof SalesMembersQuerySchema>;

export const SalesMemberSchema = z
  .object({
    member_number: z.number().int(),
    /** The member's e-mail today; null when the account was erased ("Cuenta eliminada"). */
    email: z.string().nullable(),
    erased: z.boolean(),
    edition: z.enum(EDITION_IDS),
    status: z.enum(MEMBERSHIP_STATUSES),
    /** The monthly price locked at purchase, in cents. */
    price_cents: z.number().int(),
    /** When the membership started (the checkout was applied). */
    since: z.string(),
    /** When the current status was set (Stripe's time of the event that set it). */
    status_at: z.string(),
  })
  .meta({ id: 'SalesMember' });
export type SalesMember = z.infer<typeof SalesMemberSchema>;

export const SalesMembersPageSchema = z
  .object({
    items: z.array(SalesMemberSchema),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .meta({ id: 'SalesMembersPage' });
export type SalesMembersPage = z.infer<typeof SalesMembersPageSchema>;

/** Refunded and disputed memberships, the newest status change first. */
export const SalesRefundsSchema = z.object({ items: z.array(SalesMemberSchema) }).meta({ id: 'SalesRefunds' });
export type SalesRefunds = z.infer<typeof SalesRefundsSchema>;

/** A Stripe event that gave up: failed, never applied, not dismissed (retry and dismiss are in Salud). */
export const SalesAttentionEventSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    received_at: z.string(),
    failed_at: z.string(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
  })
  .meta({ id: 'SalesAttentionEvent' });
export type SalesAttentionEvent = z.infer<typeof SalesAttentionEventSchema>;

export const SalesAttentionEventsSchema = z.object({ items: z.array(SalesAttentionEventSchema) }).meta({ id: 'SalesAttentionEvents' });
export type SalesAttentionEvents = z.infer<typeof SalesAttentionEventsSchema>;
