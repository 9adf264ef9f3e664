import { randomUUID } from 'node:crypto';
import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * The transactional outbox (core's own table): a durable event written in the same transaction
 * as the change it announces, then relayed to the `outbox` queue. `relayedAt` is set once the
 * queue took it, `deliveredAt` once its handlers succeeded; the sweeper relays what a crash or a
 * Redis outage left behind, and what the queue lost before delivering it.
 */
@Entity({ tableName: 'outbox_messages' })
@Index({ properties: ['relayedAt', 'createdAt'] })
export class OutboxMessage {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'outbox_messages';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  /** The durable event's registered name (`@DurableEvent`). */
  @Property({ type: 'varchar', length: 120 })
  type: string;

  @Property({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  relayedAt?: Date | null;

  /** Set once every handler of the event succeeded: only delivered rows are ever purged. */
  @Property({ type: 'timestamptz', nullable: true })
  deliveredAt?: Date | null;

  constructor(type: string, payload: Record<string, unknown>) {
    this.type = type;
    this.payload = payload;
  }
}
