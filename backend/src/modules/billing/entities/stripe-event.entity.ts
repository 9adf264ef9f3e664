import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * The webhook inbox: every verified Stripe event, stored before it is queued, keyed by
 * Stripe's event id so a redelivery is a no-op. `processedAt` marks its effect as done.
 */
@Entity({ tableName: 'stripe_events' })
@Index({ properties: ['processedAt', 'receivedAt'] })
export class StripeEvent {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'stripe_events';

  @PrimaryKey({ type: 'varchar', length: 255 })
  id: string;

  @Property({ type: 'varchar', length: 100 })
  type: string;

  @Property({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** Stripe's `created` of the event. */
  @Property({ type: 'timestamptz' })
  createdAt: Date;

  @Property({ type: 'timestamptz' })
  receivedAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  processedAt?: Date | null;

  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Property({ type: 'varchar', length: 500, nullable: true })
  lastError?: string | null;

  /** When the event gave up (it can never apply): it needs an admin until retried or dismissed. */
  @Property({ type: 'timestamptz', nullable: true })
  failedAt?: Date | null;

  /** When an admin dismissed the failed event. */
  @Property({ type: 'timestamptz', nullable: true })
  dismissedAt?: Date | null;
}
