import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';

export const RESERVATION_STATUSES = ['reserved', 'confirmed', 'released'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/**
 * A checkout that completed after its seat was released, when no seat was left (or its person was
 * already a member): `awaiting_payment` until a later-settling payment settles, `pending` until
 * Stripe confirms the automatic refund, then `refunded`; `nothing_charged` when the payment failed.
 */
export const LATE_REFUND_STATUSES = ['awaiting_payment', 'pending', 'refunded', 'nothing_charged'] as const;
export type LateRefundStatus = (typeof LATE_REFUND_STATUSES)[number];

/** Why a late checkout got no seat: its edition had none left, or its person was a member already. */
export const LATE_REFUND_REASONS = ['sold_out', 'already_member'] as const;
export type LateRefundReason = (typeof LATE_REFUND_REASONS)[number];

/** One seat held for one checkout, until the checkout completes or expires. */
@Entity({ tableName: 'seat_reservations' })
@Index({ properties: ['status', 'expiresAt'] })
// One open checkout per person: a second request finds and reuses the first.
@Unique({
  name: 'seat_reservations_one_open_per_user',
  expression: `create unique index "seat_reservations_one_open_per_user" on "seat_reservations" ("user_id") where "status" = 'reserved'`,
})
export class Reservation extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'seat_reservations';

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  @Index()
  user: User;

  @Property({ type: 'varchar', length: 20 })
  edition: string;

  @Property({ type: 'integer' })
  priceCents: number;

  @Enum({ items: () => [...RESERVATION_STATUSES], nativeEnumName: 'reservation_status' })
  status: Opt<ReservationStatus> = 'reserved';

  @Property({ type: 'varchar', length: 255, nullable: true })
  @Unique()
  checkoutSessionId?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  checkoutUrl?: string | null;

  @Property({ type: 'timestamptz' })
  expiresAt: Date;

  /** Set when the checkout completed too late for a seat: its automatic refund (docs/billing.md). */
  @Property({ type: 'varchar', length: 20, nullable: true })
  refundStatus?: LateRefundStatus | null;

  @Property({ type: 'varchar', length: 20, nullable: true })
  refundReason?: LateRefundReason | null;

  /** Cents the late checkout charged (and gets back). */
  @Property({ type: 'integer', nullable: true })
  refundCents?: number | null;

  @Property({ type: 'varchar', length: 255, nullable: true })
  refundId?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  refundedAt?: Date | null;

  /** The late checkout's Stripe customer, subscription and first invoice (what the refund undoes). */
  @Property({ type: 'varchar', length: 255, nullable: true })
  stripeCustomerId?: string | null;

  @Property({ type: 'varchar', length: 255, nullable: true })
  stripeSubscriptionId?: string | null;

  @Property({ type: 'varchar', length: 255, nullable: true })
  stripeInvoiceId?: string | null;
}
