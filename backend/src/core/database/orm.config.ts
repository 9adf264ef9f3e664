import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { Migrator } from '@mikro-orm/migrations';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../../migrations/index.js';

const srcMigrations = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'src', 'migrations');

/** MikroORM options for a database URL. Migrations are listed in code and applied at start. */
export function ormConfig(clientUrl: string, options: { debug?: boolean; poolMax?: number } = {}) {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    metadataProvider: ReflectMetadataProvider,
    discovery: { warnWhenNoEntities: true },
    extensions: [Migrator],
    debug: options.debug ?? false,
    pool: { min: 0, max: options.poolMax ?? 10 },
    migrations: {
      tableName: 'mikro_orm_migrations',
      migrationsList: MIGRATIONS,
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
