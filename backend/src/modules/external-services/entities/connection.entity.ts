import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';
import { ExternalService } from './external-service.entity.js';

export const CONNECTION_STATUSES = ['connected', 'needs_reconnect'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/**
 * A person's account at one service: the token vault. Tokens are AES-256-GCM ciphertexts
 * bound to this row; they never leave the server.
 */
@Entity({ tableName: 'service_connections' })
@Unique({ properties: ['user', 'service'] })
@Index({ properties: ['status', 'expiresAt'] })
export class Connection extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'service_connections';

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user: User;

  @ManyToOne(() => ExternalService, { deleteRule: 'cascade' })
  service: ExternalService;

  @Enum({ items: () => [...CONNECTION_STATUSES], nativeEnumName: 'connection_status' })
  status: Opt<ConnectionStatus> = 'connected';

  @Property({ type: 'text' })
  accessTokenEncrypted: string;

  @Property({ type: 'text', nullable: true })
  refreshTokenEncrypted?: string | null;

  @Property({ type: 'varchar', length: 1000, nullable: true })
  scope?: string | null;

  /** null: the token does not expire (GitHub OAuth apps, old Notion apps). */
  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  /** Whose OAuth app issued the tokens: the person's own credentials or the admin's. */
  @Property({ type: 'varchar', length: 10 })
  clientSource: Opt<'user' | 'app'> = 'app';

  @Property({ type: 'varchar', length: 255, nullable: true })
  accountId?: string | null;

  @Property({ type: 'varchar', length: 255, nullable: true })
  accountName?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastRefreshAt?: Date | null;

  /** Consecutive failed refreshes; reset by a success. */
  @Property({ type: 'integer' })
  refreshFailures: Opt<number> = 0;

  /** No refresh before this time (backoff after failures). */
  @Property({ type: 'timestamptz', nullable: true })
  refreshNotBefore?: Date | null;

  @Property({ type: 'varchar', length: 300, nullable: true })
  lastError?: string | null;

  /** The region the person picked when connecting (services with regions: Battle.net). */
  @Property({ type: 'varchar', length: 8, nullable: true })
  region?: string | null;

  /** A key of the connection's own beside its tokens (Philips Hue's application key), sealed like a token. */
  @Property({ type: 'text', nullable: true })
  linkKeyEncrypted?: string | null;

  /** The language the person connected in: a notice about this connection is written in it. */
  @Property({ type: 'varchar', length: 8, nullable: true })
  language?: string | null;
}
