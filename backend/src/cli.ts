import 'reflect-metadata';

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from './config/config.js';
import { ormConfig } from './core/database/orm.config.js';
import { assertNodeVersion } from './core/node-version.js';

/**
 * Admin tasks: `npm run cli -- <command>`. Later modules add their commands to COMMANDS.
 */
type Command = { usage: string; run: (args: string[]) => Promise<void> };

async function withOrm<T>(work: (orm: MikroORM) => Promise<T>): Promise<T> {
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('Set DATABASE_URL for this command (the embedded database lives inside `npm start`).');
  const orm = await MikroORM.init(ormConfig(config.databaseUrl));
  try {
    return await work(orm);
  } finally {
    await orm.close(true);
  }
}

/** Appends a generated migration to the explicit list in migrations/index.ts. */
function registerMigration(fileName: string): void {
  const className = path.basename(fileName).replace(/\.ts$/, '');
  const index = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'migrations', 'index.ts');
  let source = readFileSync(index, 'utf8');
  source = source.replace(/(import type \{ MigrationObject \} from '@mikro-orm\/core';\n)/, `$1import { ${className} } from './${className}.js';\n`);
  source = source.replace(/\];\s*$/, `, { name: '${className}', class: ${className} }];\n`);
  writeFileSync(index, source);
}

export const COMMANDS: Record<string, Command> = {
  'migration:create': {
    usage: 'migration:create [name]  generate a migration from the difference between entities and the last snapshot',
    run: async ([name]) => {
      await withOrm(async (orm) => {
        const result = await orm.migrator.create(undefined, false, false, name);
        if (!result.fileName) {
          console.log('No changes: nothing to generate.');
          return;
        }
        registerMigration(result.fileName);
        console.log(`Created ${result.fileName} and listed it in backend/src/migrations/index.ts`);
      });
    },
  },
  'migration:up': {
    usage: 'migration:up  apply pending migrations',
    run: async () => {
      await withOrm(async (orm) => {
        const applied = await orm.migrator.up();
        console.log(`Applied ${applied.length} migration(s).`);
      });
    },
  },
  'migration:down': {
    usage: 'migration:down [--all]  revert the last migration (or all)',
    run: async (args) => {
      await withOrm(async (orm) => {
        const reverted = await orm.migrator.down(args.includes('--all') ? { to: 0 } : undefined);
        console.log(`Reverted ${reverted.length} migration(s).`);
      });
    },
  },
};

export async function runCli(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`Usage: npm run cli -- <command>\n\nCommands:\n${Object.values(COMMANDS).map((c) => `  ${c.usage}`).join('\n')}`);
    return name ? 2 : 0;
  }
  await command.run(args);
  return 0;
}

if (process.argv[1] && path.basename(process.argv[1]) === 'cli.js') {
  assertNodeVersion();
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
