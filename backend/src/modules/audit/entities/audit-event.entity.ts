import { randomUUID } from 'node:crypto';
import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** One audit record: who did what, to what, when and from where. Never a secret. */
@Entity({ tableName: 'audit_events' })
@Index({ properties: ['at', 'id'] })
@Index({ properties: ['action', 'at'] })
@Index({ properties: ['actorId', 'at'] })
export class AuditEvent {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'audit_events';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  @Property({ type: 'timestamptz' })
  at: Opt<Date> = new Date();

  @Property({ type: 'varchar', length: 60 })
  action: string;

  /** No foreign key: the record outlives the account (erasure anonymises it instead). */
  @Property({ type: 'uuid', nullable: true })
  actorId?: string | null;

  @Property({ type: 'varchar', length: 254, nullable: true })
  actorLabel?: string | null;

  @Property({ type: 'varchar', length: 40, nullable: true })
  targetType?: string | null;

  @Property({ type: 'varchar', length: 254, nullable: true })
  targetId?: string | null;

  @Property({ type: 'varchar', length: 64, nullable: true })
  ip?: string | null;

  @Property({ type: 'varchar', length: 300, nullable: true })
  userAgent?: string | null;

  @Property({ type: 'jsonb' })
  details: Opt<Record<string, unknown>> = {};
}
