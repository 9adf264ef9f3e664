import { randomUUID } from 'node:crypto';
import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { DATA_EXPORT_STATUSES, type DataExportStatus } from '@life/contracts';
import { User } from '../../users/entities/user.entity.js';

/**
 * One "Descargar mis datos" request: built by the `data-export` worker job, kept (the JSON text)
 * until `expiresAt`, then deleted by the sweeper. Goes with the account (cascade).
 */
@Entity({ tableName: 'data_exports' })
@Index({ properties: ['status', 'createdAt'] })
// One open export per person: a request while one is pending or running answers that one, also
// when two arrive at once on two processes (decision 0030).
@Unique({
  name: 'data_exports_one_open_per_user',
  expression: `create unique index "data_exports_one_open_per_user" on "data_exports" ("user_id") where "status" in ('pending', 'running')`,
})
export class DataExport {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'data_exports';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  @Index()
  user: User;

  @Enum({ items: () => [...DATA_EXPORT_STATUSES], nativeEnumName: 'data_export_status' })
  status: Opt<DataExportStatus> = 'pending';

  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  startedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  finishedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Index()
  expiresAt?: Date | null;

  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  /** The file itself (pretty-printed JSON, kept as written); loaded only for the download. */
  @Property({ type: 'text', nullable: true, lazy: true })
  content?: string | null;

  @Property({ type: 'integer', nullable: true })
  sizeBytes?: number | null;

  /** Why the last attempt failed (an error message, never data). */
  @Property({ type: 'varchar', length: 300, nullable: true })
  lastError?: string | null;
}
