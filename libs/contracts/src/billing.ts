import { z } from 'zod';

export const EDITION_IDS = ['elite', 'prestige', 'legacy'] as const;
export type EditionId = (typeof EDITION_IDS)[number];

export const EditionSchema = z
  .object({
    id: z.enum(EDITION_IDS),
    name: z.string(),
    /** Monthly price in cents of euro, locked for life for its members. */
    price_cents: z.number().int(),
    currency: z.literal('eur'),
    limit: z.number().int(),
    seats_left: z.number().int(),
    on_sale: z.boolean(),
  })
  .meta({ id: 'Edition' });
export type Edition = z.infer<typeof EditionSchema>;

export const EditionsSchema = z.object({ editions: z.array(EditionSchema), payments_enabled: z.boolean(), sold_out: z.boolean() }).meta({ id: 'Editions' });
export type Editions = z.infer<typeof EditionsSchema>;

/** Spec section 7: `url` to navigate to, or `sessionId` for Stripe.js. */
export const CheckoutResponseSchema = z
  .object({ url: z.string().optional(), sessionId: z.string().optional(), edition: z.enum(EDITION_IDS) })
  .meta({ id: 'CheckoutResponse' });
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/**
 * `pending_payment`: the checkout completed with a payment that settles later (SEPA and the like);
 * `refunded` / `disputed`: the payment was refunded or is disputed (docs/billing.md).
 */
export const MEMBERSHIP_STATUSES = ['active', 'past_due', 'cancelled', 'pending_payment', 'refunded', 'disputed'] as const;

export const MembershipSchema = z
  .object({
    edition: z.enum(EDITION_IDS),
    edition_name: z.string(),
    price_cents: z.number().int(),
    currency: z.literal('eur'),
    member_number: z.number().int(),
    status: z.enum(MEMBERSHIP_STATUSES),
    since: z.string(),
    /** Cancelled in the customer portal: when it ends (the paid period's end, ISO 8601); null while it renews (decision 0048). */
    cancel_at: z.string().nullable().optional(),
  })
  .meta({ id: 'Membership' });
export type Membership = z.infer<typeof MembershipSchema>;

/**
 * A checkout that completed after its seat had gone (the edition sold out meanwhile, or the person
 * was already a member): no membership from it, and its payment is refunded automatically.
 * `awaiting_payment`: the payment has not settled yet (it is refunded when it does); `pending`: the
 * refund is asked of Stripe; `refunded`: done; `nothing_charged`: the payment failed, nothing to give back.
 */
export const LateRefundSchema = z
  .object({
    status: z.enum(['awaiting_payment', 'pending', 'refunded', 'nothing_charged']),
    /** `sold_out`: no seat of its edition was left; `already_member`: the person had bought meanwhile (a repeated payment). */
    reason: z.enum(['sold_out', 'already_member']),
    edition: z.enum(EDITION_IDS),
    amount_cents: z.number().int().nullable(),
    refunded_at: z.string().nullable(),
  })
  .meta({ id: 'LateRefund' });
export type LateRefund = z.infer<typeof LateRefundSchema>;

export const MembershipAnswerSchema = z
  .object({
    membership: MembershipSchema.nullable(),
    /** The person's most recent checkout refunded for completing too late (docs/billing.md), if any. */
    late_refund: LateRefundSchema.nullable().optional(),
  })
  .meta({ id: 'MembershipAnswer' });
