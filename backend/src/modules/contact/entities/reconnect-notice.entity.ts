import { randomUUID } from 'node:crypto';
import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { User } from '../../users/entities/user.entity.js';

export const RECONNECT_NOTICE_STATUSES = ['pending', 'sent', 'failed', 'no_address'] as const;
export type ReconnectNoticeStatus = (typeof RECONNECT_NOTICE_STATUSES)[number];

/**
 * One e-mail telling a person that a connection broke and needs connecting again. One row per
 * break: `breakId` is the id of the durable event that announced it, unique, so a repeated
 * delivery of that event never mails twice, while a later break (after a reconnect) is a new row.
 */
@Entity({ tableName: 'reconnect_notices' })
@Index({ name: 'reconnect_notices_status_created_at_index', properties: ['status', 'createdAt'] })
export class ReconnectNotice {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'reconnect_notices';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  /** The ConnectionNeedsReconnectEvent's id: which break this mail is about. */
  @Property({ type: 'uuid' })
  @Unique()
  breakId: string;

  /** The connection that broke (external-services' row; no foreign key across modules). */
  @Property({ type: 'uuid' })
  connectionId: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  @Index()
  user: User;

  @Property({ type: 'varchar', length: 64 })
  serviceName: string;

  /** The language the mail is written in (the one the person connected in). */
  @Property({ type: 'varchar', length: 8 })
  language: string;

  @Enum({ items: () => [...RECONNECT_NOTICE_STATUSES], nativeEnumName: 'reconnect_notice_status' })
  status: Opt<ReconnectNoticeStatus> = 'pending';

  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  sentAt?: Date | null;

  @Property({ type: 'varchar', length: 500, nullable: true })
  lastError?: string | null;
}
