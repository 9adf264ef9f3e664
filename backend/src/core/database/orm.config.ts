import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { releaseDroppedConnections } from './pool-guard.js';

/**
 * How long a request waits for a new connection (or a free one in the pool) before it fails with
 * a 503: without it, a PostgreSQL that accepts TCP but does not answer holds requests forever.
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 5000;

const srcMigrations = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'src', 'migrations');

export interface OrmOptions {
  /** Every module's entities, composed by the app (core knows no module). */
  entities: EntityClass<object>[];
  /** The migrations, listed in code and applied at start. */
  migrations: MigrationObject[];
  debug?: boolean;
  poolMax?: number;
}

/** MikroORM options for a database URL. */
export function ormConfig(clientUrl: string, options: OrmOptions) {
  return defineConfig({
    clientUrl,
    entities: options.entities,
    metadataProvider: ReflectMetadataProvider,
    discovery: { warnWhenNoEntities: true },
    extensions: [Migrator],
    debug: options.debug ?? false,
    pool: { min: 0, max: options.poolMax ?? 10 },
    // Handed to the `pg` pool: fail instead of waiting forever, and never leak a dropped connection.
    driverOptions: { connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS, onPoolCreated: releaseDroppedConnections },
    migrations: {
      tableName: 'mikro_orm_migrations',
      migrationsList: options.migrations,
      path: srcMigrations,
      pathTs: srcMigrations,
      emit: 'ts',
      snapshot: true,
      snapshotName: '.snapshot-life',
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
    allowGlobalContext: false,
  });
}
