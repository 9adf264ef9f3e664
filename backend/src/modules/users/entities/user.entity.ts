import type { Opt } from '@mikro-orm/core';
import { Entity, Enum, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ROLES, type Role } from '@life/contracts';
import { BaseEntity } from '../../../core/database/base.entity.js';

@Entity({ tableName: 'users' })
@Unique({
  name: 'users_username_lower_unique',
  expression: 'create unique index "users_username_lower_unique" on "users" (lower("username"))',
})
export class User extends BaseEntity {
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
}
