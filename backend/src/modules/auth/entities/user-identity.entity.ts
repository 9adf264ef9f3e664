import { EntityName, type Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { User } from '../../users/entities/user.entity.js';

/** A person's account at one identity provider: (provider, subject) names them for good. */
@Entity({ tableName: 'user_identities' })
@Unique({ properties: ['provider', 'subject'] })
export class UserIdentity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'user_identities';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  @Property({ type: 'varchar', length: 64 })
  provider: string;

  @Property({ type: 'varchar', length: 255 })
  subject: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  @Index()
  user: User;

  /** The e-mail the provider reported at the last sign-in. */
  @Property({ type: 'varchar', length: 254, nullable: true })
  email?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz' })
  lastLoginAt: Opt<Date> = new Date();
}
