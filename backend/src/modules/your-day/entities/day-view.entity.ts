import { randomUUID } from 'node:crypto';
import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { User } from '../../users/entities/user.entity.js';

/**
 * One person's view of one connected service (issue 19): whether they want it, the last snapshot a
 * worker fetched from the provider (sealed like a token: only what the screens show), when it
 * expires, and when the next fetch is due. No foreign key to the connection (another module's
 * table): the row goes when the connection goes (ServiceDisconnectedEvent), and a sync that finds
 * no connection deletes it.
 */
@Entity({ tableName: 'day_views' })
@Unique({ name: 'day_views_user_service_unique', properties: ['user', 'serviceName'] })
@Index({ name: 'day_views_due_index', properties: ['enabled', 'nextSyncAt'] })
export class DayViewRow {
  declare [EntityName]?: 'day_views';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user: User;

  @Property({ type: 'varchar', length: 64 })
  serviceName: string;

  /** The person's switch: off means nothing is fetched or kept. */
  @Property({ type: 'boolean' })
  enabled: Opt<boolean> = true;

  /** The snapshot `{headline, sections, timeline}` as JSON, sealed under `day_views:<id>:view`; null before the first fetch. */
  @Property({ type: 'text', nullable: true })
  viewSealed?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  fetchedAt?: Date | null;

  /** When the last fetch finished, with a snapshot or a problem. */
  @Property({ type: 'timestamptz', nullable: true })
  checkedAt?: Date | null;

  /** The snapshot is deleted after this, fetched again or not. */
  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  /** Why the last fetch brought nothing new (DAY_PROBLEMS), or null. */
  @Property({ type: 'varchar', length: 32, nullable: true })
  problem?: string | null;

  /** Failed fetches in a row (the backoff's exponent). */
  @Property({ type: 'integer' })
  failures: Opt<number> = 0;

  /** When the sweeper queues the next fetch. */
  @Property({ type: 'timestamptz' })
  nextSyncAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}
