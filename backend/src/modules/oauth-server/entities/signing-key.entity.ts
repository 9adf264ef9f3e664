import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';

/**
 * A key that signs ID tokens. Generated on first start and kept here, its private half
 * sealed with the key ring; rotation makes a new active key and keeps retired ones in the
 * JWKS until tokens they signed have expired.
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

  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;

  @Property({ type: 'timestamptz', nullable: true })
  retiredAt?: Date | null;
}
