import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { ClientType } from '@life/contracts';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';

/** A third-party application allowed to ask people for access (spec: "OAuth client application"). */
@Entity({ tableName: 'oauth_clients' })
export class OAuthClient extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'oauth_clients';

  @Property({ type: 'varchar', length: 120 })
  name: string;

  @Property({ type: 'varchar', length: 100 })
  @Unique()
  clientId: string;

  /** confidential: has a secret and authenticates with it; public: PKCE only (SPAs, native apps). */
  @Property({ type: 'varchar', length: 20 })
  clientType: Opt<ClientType> = 'confidential';

  /** SHA-256 (hex) of a 256-bit random secret, shown once at creation; null for public clients. */
  @Property({ type: 'char', length: 64, nullable: true })
  clientSecretHash?: string | null;

  /** Registered redirect URIs, compared exactly (a loopback's port may vary). */
  @Property({ type: 'jsonb' })
  redirectUris: string[];

  /** Where RP-initiated logout may send the browser back to (decision 0034), compared like redirect URIs. */
  @Property({ type: 'jsonb', default: '[]' })
  postLogoutRedirectUris: Opt<string[]> = [];

  /** The scopes this client may ask for. */
  @Property({ type: 'jsonb' })
  allowedScopes: string[];

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null', fieldName: 'owner_user_id' })
  ownerUser?: User | null;

  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;

  /** RFC 9126: this client's authorization requests must be pushed first (`POST /oauth/par`; decision 0035). */
  @Property({ type: 'boolean', default: false })
  requirePushedAuthorizationRequests: Opt<boolean> = false;

  /** The person who registered it on their profile (decision 0037); null: a company app. Goes with their account. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'cascade', fieldName: 'developer_id', index: true })
  developer?: User | null;

  /** https only; the consent screen shows it with referrerpolicy=no-referrer (never fetched by us). */
  @Property({ type: 'varchar', length: 2000, nullable: true })
  logoUri?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  policyUri?: string | null;

  @Property({ type: 'varchar', length: 2000, nullable: true })
  tosUri?: string | null;

  /** Checked by the company. Company apps start verified; person-made ones do not. */
  @Property({ type: 'boolean' })
  verified: Opt<boolean> = true;

  /** Stopped by an admin: refused like an inactive app, its tokens stop working; only an admin lifts it. */
  @Property({ type: 'boolean' })
  suspended: Opt<boolean> = false;
}
