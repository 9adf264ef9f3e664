import { EntityName } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';
import { OAuthClient } from './oauth-client.entity.js';
import { OAuthGrant } from './oauth-grant.entity.js';

/** An authorization code: single use, short-lived; only its SHA-256 is stored. */
@Entity({ tableName: 'oauth_codes' })
@Index({ properties: ['expiresAt'] })
export class OAuthCode extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'oauth_codes';

  @Property({ type: 'char', length: 64 })
  @Unique()
  codeHash: string;

  @ManyToOne(() => OAuthClient, { deleteRule: 'cascade' })
  client: OAuthClient;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user: User;

  @ManyToOne(() => OAuthGrant, { deleteRule: 'cascade' })
  grant: OAuthGrant;

  @Property({ type: 'varchar', length: 2000 })
  redirectUri: string;

  @Property({ type: 'jsonb' })
  scopes: string[];

  @Property({ type: 'varchar', length: 128, nullable: true })
  codeChallenge?: string | null;

  @Property({ type: 'varchar', length: 10, nullable: true })
  codeChallengeMethod?: string | null;

  @Property({ type: 'varchar', length: 500, nullable: true })
  nonce?: string | null;

  /** RFC 9449 §10: the thumbprint of the DPoP key that must redeem this code (`dpop_jkt`, or a proof at /oauth/par). */
  @Property({ type: 'varchar', length: 64, nullable: true })
  dpopJkt?: string | null;

  /** When the person last signed in (OIDC auth_time): their session's creation. */
  @Property({ type: 'timestamptz' })
  authTime: Date;

  @Property({ type: 'timestamptz' })
  expiresAt: Date;

  @Property({ type: 'timestamptz', nullable: true })
  usedAt?: Date | null;

  /** Set when the code was presented again after use: its tokens were revoked. */
  @Property({ type: 'timestamptz', nullable: true })
  replayedAt?: Date | null;
}
