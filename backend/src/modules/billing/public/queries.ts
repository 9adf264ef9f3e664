import { Query } from '@nestjs/cqrs';
import type { Editions, Membership } from '@life/contracts';

/** The three lifetime editions with seats left and which one is on sale. */
export class EditionsQuery extends Query<Editions> {}

/** A person's lifetime membership, if any. */
export class MembershipQuery extends Query<{ membership: Membership | null }> {
  constructor(readonly userId: string) {
    super();
  }
}
