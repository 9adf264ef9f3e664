import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';

/** Any constant: identifies our migration lock among advisory locks. */
const MIGRATION_LOCK = 4_242_001;

/**
 * Applies pending migrations before anything else uses the database
 * (onModuleInit runs before every onApplicationBootstrap). An advisory lock makes
 * concurrent starts of several processes safe.
 */
@Injectable()
export class MigrationRunner implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(private readonly orm: MikroORM) {}

  async onModuleInit(): Promise<void> {
    const client = new pg.Client({ connectionString: this.orm.config.get('clientUrl') });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const applied = await this.orm.migrator.up();
      if (applied.length > 0) this.logger.log(`Applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      await client.end();
    }
  }
}
