import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Enum, OneToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { MEMBERSHIP_STATUSES } from '@life/contracts';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';

type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/**
 * A lifetime member: edition, the monthly price locked at purchase, and a member number. When the
 * member erases their account the row stays, without the person (`user` null, `userErasedAt`
 * set): it is the billing record the law requires us to keep (docs/data-rights.md).
 */
@Entity({ tableName: 'memberships' })
export class Membership extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'memberships';

  @OneToOne(() => User, { owner: true, deleteRule: 'set null', unique: true, nullable: true })
  user?: User | null;

  @Property({ type: 'varchar', length: 20 })
  edition: string;

  @Property({ type: 'integer' })
  priceCents: number;

  @Property({ type: 'integer' })
  @Unique()
  memberNumber: number;

  @Enum({ items: () => [...MEMBERSHIP_STATUSES], nativeEnumName: 'membership_status' })
  status: Opt<MembershipStatus> = 'active';

  /** Time of the Stripe event that set `status`: older events never overwrite newer ones. */
  @Property({ type: 'timestamptz' })
  statusAt: Date;

  @Property({ type: 'varchar', length: 255, nullable: true })
  stripeCustomerId?: string | null;

  @Property({ type: 'varchar', length: 255, nullable: true })
  @Unique()
  stripeSubscriptionId?: string | null;

  @Property({ type: 'varchar', length: 255 })
  @Unique()
  checkoutSessionId: string;

  /** When a subscription cancelled in the customer portal ends (its paid period's end); null while it renews (decision 0048). */
  @Property({ type: 'timestamptz', nullable: true })
  cancelAt?: Date | null;

  /** When the subscription's end gave the seat back to its edition (decision 0048); null while the member holds it. */
  @Property({ type: 'timestamptz', nullable: true })
  seatReleasedAt?: Date | null;

  /** When the payment was refunded in full (or a dispute was lost): the seat went back on sale. */
  @Property({ type: 'timestamptz', nullable: true })
  refundedAt?: Date | null;

  /** Cents refunded of the membership's payment (a partial refund leaves the membership as it was). */
  @Property({ type: 'integer', nullable: true })
  refundedCents?: number | null;

  /** The latest dispute (chargeback) of the membership's payment: Stripe's id, status and reason. */
  @Property({ type: 'varchar', length: 255, nullable: true })
  disputeId?: string | null;

  @Property({ type: 'varchar', length: 40, nullable: true })
  disputeStatus?: string | null;

  @Property({ type: 'varchar', length: 60, nullable: true })
  disputeReason?: string | null;

  /** When the member erased their account (the row was anonymised then). */
  @Property({ type: 'timestamptz', nullable: true })
  userErasedAt?: Date | null;
}
