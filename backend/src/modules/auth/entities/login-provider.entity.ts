import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';

/** An identity provider people sign in with (spec section 3, "Login provider"). */
@Entity({ tableName: 'login_providers' })
export class LoginProvider extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'login_providers';

  @Property({ type: 'varchar', length: 64 })
  @Unique()
  serviceName: string;

  @Property({ type: 'varchar', length: 40 })
  serviceType: Opt<string> = 'login';

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ type: 'varchar', length: 500, nullable: true })
  appId?: string | null;

  /** AES-256-GCM ciphertext from the key ring; never returned by the API. */
  @Property({ type: 'text', nullable: true })
  appSecretEncrypted?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  baseUrl?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  authUrl?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  tokenUrl?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  redirectUrl?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  userUrl?: string | null;

  @Property({ type: 'varchar', length: 1000, nullable: true })
  scopes?: string | null;
}
