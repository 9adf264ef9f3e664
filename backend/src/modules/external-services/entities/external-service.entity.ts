import type { Opt } from '@mikro-orm/core';
import { Entity, Enum, Property, Unique } from '@mikro-orm/decorators/legacy';
import { SERVICE_STATUSES, type ServiceStatus } from '@life/contracts';
import { BaseEntity } from '../../../core/database/base.entity.js';

/**
 * A catalog entry of an outside service people can connect (spec section 3,
 * "External service"). `connected` is per person and lives with the connections.
 */
@Entity({ tableName: 'external_services' })
export class ExternalService extends BaseEntity {
  @Property({ type: 'varchar', length: 64 })
  @Unique()
  serviceName: string;

  /** A category; 'login' marks login-type services. */
  @Property({ type: 'varchar', length: 40 })
  serviceType: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Enum({ items: () => [...SERVICE_STATUSES], nativeEnumName: 'service_status' })
  status: Opt<ServiceStatus> = 'announced';

  @Property({ type: 'varchar', length: 1000, nullable: true })
  scopes?: string | null;

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
}
