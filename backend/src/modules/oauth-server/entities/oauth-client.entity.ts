import type { Opt } from '@mikro-orm/core';
import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';

/** A third-party application allowed to ask people for access (spec: "OAuth client application"). */
@Entity({ tableName: 'oauth_clients' })
export class OAuthClient extends BaseEntity {
  @Property({ type: 'varchar', length: 120 })
  name: string;

  @Property({ type: 'varchar', length: 100 })
  @Unique()
  clientId: string;

  /** SHA-256 (hex) of a 256-bit random secret, shown once at creation; null for public clients. */
  @Property({ type: 'char', length: 64, nullable: true })
  clientSecretHash?: string | null;

  @Property({ type: 'varchar', length: 2000 })
  redirectUri: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null', fieldName: 'owner_user_id' })
  ownerUser?: User | null;

  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;
}
