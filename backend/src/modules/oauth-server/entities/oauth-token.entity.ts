import { EntityName } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';
import { OAuthClient } from './oauth-client.entity.js';
import { OAuthGrant } from './oauth-grant.entity.js';

/**
 * One issued access token and (for person grants) its refresh token; only SHA-256 hashes
 * are stored. A refresh makes a new row in the same family; reuse of a spent refresh token
 * revokes the whole family.
 */
@Entity({ tableName: 'oauth_tokens' })
@Index({ properties: ['familyId'] })
@Index({ properties: ['grant'] })
@Index({ properties: ['codeId'] })
@Index({
  name: 'oauth_tokens_successor_sealed_index',
  expression: 'create index "oauth_tokens_successor_sealed_index" on "oauth_tokens" ("refresh_used_at") where "successor_sealed" is not null',
})
export class OAuthToken extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'oauth_tokens';

  @Property({ type: 'char', length: 64 })
  @Unique()
  accessTokenHash: string;

  @Property({ type: 'char', length: 64, nullable: true })
  @Unique()
  refreshTokenHash?: string | null;

  @Property({ type: 'timestamptz' })
  accessExpiresAt: Date;

  @Property({ type: 'timestamptz', nullable: true })
  refreshExpiresAt?: Date | null;

  @ManyToOne(() => OAuthClient, { deleteRule: 'cascade' })
  client: OAuthClient;

  /** Null for client_credentials tokens: they speak for the app, not a person. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'cascade' })
  user?: User | null;

  @ManyToOne(() => OAuthGrant, { nullable: true, deleteRule: 'cascade' })
  grant?: OAuthGrant | null;

  /** The authorization code this family started from (no foreign key: codes are purged). */
  @Property({ type: 'uuid', nullable: true })
  codeId?: string | null;

  @Property({ type: 'uuid' })
  familyId: string;

  @Property({ type: 'jsonb' })
  scopes: string[];

  /** Set once, atomically, when the refresh token is exchanged. */
  @Property({ type: 'timestamptz', nullable: true })
  refreshUsedAt?: Date | null;

  /** The row whose pair replaced this refresh token: set by the rotation that spent it. */
  @Property({ type: 'uuid', nullable: true })
  successorId?: string | null;

  /**
   * That pair (access and refresh token) sealed with the key ring, so the same client retrying
   * this token inside the grace window gets it again (decision 0028); wiped once the window is over.
   */
  @Property({ type: 'text', nullable: true })
  successorSealed?: string | null;

  /**
   * RFC 9449: the RFC 7638 thumbprint of the DPoP key the access token is bound to (`cnf.jkt`);
   * for a public client the refresh token too (decision 0036). Null for a Bearer token.
   */
  @Property({ type: 'varchar', length: 64, nullable: true })
  dpopJkt?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  /** Why: revoked (RFC 7009), refresh_reuse, code_replay, grant_revoked, client_removed. */
  @Property({ type: 'varchar', length: 30, nullable: true })
  revokedReason?: string | null;
}
