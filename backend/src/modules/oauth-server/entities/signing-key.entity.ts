import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';

/**
 * A key that signs ID tokens. Generated on first start and kept here, its private half
 * sealed with the key ring. Every process publishes every key in the JWKS from the moment its
 * row exists, and signs with the newest key whose `activatesAt` has passed: rotation inserts the
 * new key a few seconds ahead of its activation (publish first, sign later, decision 0030) and
 * keeps retired keys in the JWKS until tokens they signed have expired.
 */
@Entity({ tableName: 'oauth_signing_keys' })
export class OAuthSigningKey extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'oauth_signing_keys';

  @Property({ type: 'varchar', length: 64 })
  @Unique()
  kid: string;

  @Property({ type: 'varchar', length: 10 })
  alg: string;

  @Property({ type: 'jsonb' })
  publicJwk: Record<string, unknown>;

  @Property({ type: 'text' })
  privateJwkSealed: string;

  /** The newest key made (by the first start or the last rotation), whether it signs yet or not. */
  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;

  /** From when (database clock) processes sign with it; until then it is only published. */
  @Property({ type: 'timestamptz' })
  activatesAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  retiredAt?: Date | null;
}
