import { Query } from '@nestjs/cqrs';
import type { Editions, LateRefund, Membership, StripeEventAttention } from '@life/contracts';

/** The three lifetime editions with seats left and which one is on sale. */
export class EditionsQuery extends Query<Editions> {}

/** A person's lifetime membership, if any. */
export class MembershipQuery extends Query<{ membership: Membership | null; late_refund: LateRefund | null }> {
  constructor(readonly userId: string) {
    super();
  }
}

/** Salud: Stripe events that gave up and need an admin (retry or dismiss), newest failure first. */
export class StripeEventsNeedingAttentionQuery extends Query<StripeEventAttention[]> {
  constructor(readonly limit = 50) {
    super();
  }
}
