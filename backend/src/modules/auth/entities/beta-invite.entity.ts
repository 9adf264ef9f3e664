import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** An e-mail allowed to create an account while beta mode is on. The e-mail is the key. */
@Entity({ tableName: 'beta_invites' })
export class BetaInvite {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'beta_invites';

  /** Normalised: trimmed and lower-cased. */
  @PrimaryKey({ type: 'varchar', length: 254 })
  email: string;

  /** E-mail of the admin who invited, or null (e.g. invited from the CLI). */
  @Property({ type: 'varchar', length: 254, nullable: true })
  invitedBy?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();
}
