import { EntityName } from '@mikro-orm/core';
import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';
import { OAuthClient } from './oauth-client.entity.js';

/**
 * A person's consent to one app: the scopes they allowed. Remembered, so the same request
 * does not ask again; revoking it (profile page) ends every token issued under it.
 */
@Entity({ tableName: 'oauth_grants' })
@Unique({ properties: ['user', 'client'] })
export class OAuthGrant extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'oauth_grants';

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user: User;

  @ManyToOne(() => OAuthClient, { deleteRule: 'cascade' })
  client: OAuthClient;

  @Property({ type: 'jsonb' })
  scopes: string[];

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;
}
