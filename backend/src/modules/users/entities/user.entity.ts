import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ROLES, type Role } from '@life/contracts';
import { BaseEntity } from '../../../core/database/base.entity.js';

@Entity({ tableName: 'users' })
@Unique({
  name: 'users_username_lower_unique',
  expression: 'create unique index "users_username_lower_unique" on "users" (lower("username"))',
})
@Index({
  name: 'users_erasure_requested_at_index',
  expression: 'create index "users_erasure_requested_at_index" on "users" ("erasure_requested_at") where "erasure_requested_at" is not null',
})
export class User extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'users';

  /** Shown in the header; unique regardless of case. */
  @Property({ type: 'varchar', length: 32 })
  username: string;

  /** Stored lower-cased. */
  @Property({ type: 'varchar', length: 254 })
  @Unique()
  email: string;

  @Property({ type: 'boolean' })
  emailVerified: Opt<boolean> = false;

  @Enum({ items: () => [...ROLES], nativeEnumName: 'user_role' })
  role: Opt<Role> = 'user';

  /**
   * Set when the person asked to erase their account (docs/data-rights.md): sign-in is refused
   * from then on, and the worker's sweeper queues the erasure again until the row is gone.
   */
  @Property({ type: 'timestamptz', nullable: true })
  erasureRequestedAt?: Date | null;
}
