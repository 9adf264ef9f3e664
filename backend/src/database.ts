import { ormConfig } from './core/database/orm.config.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';

/** MikroORM options for this app: every module's entities and the migrations (CLI, tests, the app). */
export function appOrmConfig(clientUrl: string, options: { debug?: boolean; poolMax?: number } = {}) {
  return ormConfig(clientUrl, { ...options, entities: ENTITIES, migrations: MIGRATIONS });
}
