import { EntityName, type Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { User } from '../../users/entities/user.entity.js';

/**
 * A signed-in browser. The bearer `authToken` is 256 random bits; only its SHA-256
 * (hex) is stored, so a database leak yields no usable session.
 */
@Entity({ tableName: 'sessions' })
export class Session {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'sessions';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  @Property({ type: 'char', length: 64 })
  @Unique()
  tokenHash: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  @Index()
  user: User;

  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz' })
  lastUsedAt: Opt<Date> = new Date();

  @Property({ type: 'timestamptz' })
  expiresAt: Date;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  @Property({ type: 'varchar', length: 64, nullable: true })
  ip?: string | null;

  @Property({ type: 'varchar', length: 300, nullable: true })
  userAgent?: string | null;
}
