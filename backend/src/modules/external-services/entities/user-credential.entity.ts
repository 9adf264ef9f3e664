import { EntityName } from '@mikro-orm/core';
import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../../core/database/base.entity.js';
import { User } from '../../users/entities/user.entity.js';

/** A person's own OAuth app credentials for one service (spec: "User external-service credential"). */
@Entity({ tableName: 'user_service_credentials' })
@Unique({ properties: ['user', 'serviceName'] })
export class UserCredential extends BaseEntity {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'user_service_credentials';

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user: User;

  @Property({ type: 'varchar', length: 64 })
  serviceName: string;

  @Property({ type: 'varchar', length: 500 })
  clientId: string;

  /** AES-256-GCM ciphertext from the key ring; answered masked. */
  @Property({ type: 'text' })
  clientSecretEncrypted: string;
}
