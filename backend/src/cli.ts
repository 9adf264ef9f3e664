import 'reflect-metadata';

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { MikroORM } from '@mikro-orm/postgresql';
import { CreateOAuthClientSchema, EmailSchema } from '@life/contracts';
import { loadConfig } from './config/config.js';
import { BetaInvite } from './modules/auth/entities/beta-invite.entity.js';
import { User } from './modules/users/entities/user.entity.js';
import { KeyRing, loadKeyRing } from './core/crypto/key-ring.js';
import { embeddedUrlFile } from './core/database/embedded-postgres.js';
import { appOrmConfig } from './database.js';
import { assertNodeVersion } from './core/node-version.js';
import { requestRotation } from './modules/external-services/key-rotation.cli.js';
import { keyUsage, type Execute } from './core/crypto/sealed-columns.js';
import { SEALED_TABLES } from './sealed-columns.js';
import { AuditService } from './modules/audit/audit.service.js';
import { ClientsService } from './modules/oauth-server/clients.service.js';
import { announceSigningKeys, SigningKeysService } from './modules/oauth-server/signing-keys.service.js';
import { render } from './core/i18n/messages.js';
import { issueText } from './core/i18n/zod-locale.js';

/**
 * Admin tasks: `npm run cli -- <command>`. Later modules add their commands to COMMANDS.
 */
type Command = { usage: string; run: (args: string[]) => Promise<void> };

async function withOrm<T>(work: (orm: MikroORM) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    try {
      databaseUrl = readFileSync(embeddedUrlFile(config.dataDir), 'utf8').trim();
    } catch {
      throw new Error('Set DATABASE_URL, or start the app first (`npm start`): the embedded database is reachable only while it runs.');
    }
  }
  const orm = await MikroORM.init(appOrmConfig(databaseUrl));
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
  source = source.replace(/,?\s*\];\s*$/, `,\n  { name: '${className}', class: ${className} },\n];\n`);
  writeFileSync(index, source);
}

/** The key ring this process would use (ENCRYPTION_KEYS, or the development key file). */
function configuredKeyRing(): { ring: KeyRing; redisUrl: string; queuePrefix: string } {
  const config = loadConfig();
  return { ring: loadKeyRing(config.encryptionKeys, config.dataDir, config.isProduction).ring, redisUrl: config.redisUrl, queuePrefix: config.queuePrefix };
}

export const COMMANDS: Record<string, Command> = {
  'keys:generate': {
    usage: 'keys:generate [id]  print a new encryption key spec to put first in ENCRYPTION_KEYS',
    run: async ([id]) => {
      const spec = KeyRing.generateKeySpec(id);
      KeyRing.parse(spec); // validates the id
      console.log(spec);
      console.error(
        '\nPut it first in ENCRYPTION_KEYS, keep the current keys after it (e.g. ENCRYPTION_KEYS=<new>,<old>),\ndeploy every process, then run `npm run cli -- keys:rotate`. See docs/connections.md.',
      );
    },
  },
  'keys:status': {
    usage: 'keys:status  count the stored secrets under each key id (stale = not under the first key)',
    run: async () => {
      const { ring } = configuredKeyRing();
      await withOrm(async (orm) => {
        const connection = orm.em.fork().getConnection();
        const execute: Execute = <T>(sql: string, params: unknown[] = []) => connection.execute(sql, params) as Promise<T>;
        const usage = await keyUsage(execute, SEALED_TABLES);
        console.log(`Primary key: ${ring.primaryId}; ring: ${ring.keyIds.join(', ')}`);
        for (const row of usage)
          console.log(`  ${`${row.table}.${row.column}`.padEnd(50)} ${row.keyId.padEnd(20)} ${row.count}${row.keyId === ring.primaryId ? '' : '  (stale)'}`);
        const stale = usage.filter((row) => row.keyId !== ring.primaryId).reduce((sum, row) => sum + row.count, 0);
        console.log(
          stale === 0
            ? 'Stale values: 0. Keys other than the first can be removed from ENCRYPTION_KEYS.'
            : `Stale values: ${stale}. Run \`npm run cli -- keys:rotate\`.`,
        );
      });
    },
  },
  'keys:rotate': {
    usage: 'keys:rotate [--no-wait] [--timeout <s>]  re-seal every stored secret under the first key of ENCRYPTION_KEYS (a worker job)',
    run: async (args) => {
      const { ring, redisUrl, queuePrefix } = configuredKeyRing();
      const timeoutIndex = args.indexOf('--timeout');
      const timeoutSeconds = timeoutIndex >= 0 ? Number(args[timeoutIndex + 1]) : 1800;
      if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new Error('Usage: keys:rotate [--no-wait] [--timeout <seconds>]');
      await withOrm((orm) =>
        new AuditService(orm.em.fork()).record({
          action: 'admin.vault_key_rotation_requested',
          actor: { id: null, label: 'cli' },
          target: { type: 'key_ring', id: ring.primaryId },
        }),
      ).catch(() => console.error('(could not write the audit record: is the database reachable?)'));
      const { result } = await requestRotation({
        redisUrl,
        queuePrefix,
        primaryKeyId: ring.primaryId,
        wait: !args.includes('--no-wait'),
        timeoutMs: timeoutSeconds * 1000,
      });
      if (!result) return;
      console.log(
        `Re-sealed ${result.reencrypted} value(s) (${
          Object.entries(result.byTable)
            .map(([table, n]) => `${table}: ${n}`)
            .join(', ') || 'none needed'
        }).`,
      );
      if (result.failed > 0) console.log(`${result.failed} value(s) did not decrypt with any key of the ring: they were left as they are.`);
      if (result.busy > 0) console.log(`${result.busy} connection(s) were being refreshed the whole time: run keys:rotate again.`);
      console.log(
        result.stale === 0
          ? `Stale values: 0. Every secret is under "${result.primaryKeyId}": remove the other keys from ENCRYPTION_KEYS at the next deploy.`
          : `Stale values: ${result.stale}. Keep the old keys; see \`npm run cli -- keys:status\`.`,
      );
      if (result.stale > 0) throw new Error('Some values are still under older keys.');
    },
  },
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
  'user:make-admin': {
    usage: 'user:make-admin <email>  give an existing account the admin role',
    run: async ([email]) => {
      const parsed = EmailSchema.safeParse(email ?? '');
      if (!parsed.success) throw new Error('Usage: user:make-admin <email>');
      await withOrm(async (orm) => {
        const em = orm.em.fork();
        const user = await em.findOne(User, { email: parsed.data });
        if (!user) throw new Error(`No account uses ${parsed.data} yet: sign in once first (or list it in ADMIN_EMAILS).`);
        user.role = 'admin';
        await em.flush();
        console.log(`${user.email} (${user.username}) is now an admin.`);
      });
    },
  },
  invite: {
    usage: 'invite <email>  invite an e-mail to the beta',
    run: async ([email]) => {
      const parsed = EmailSchema.safeParse(email ?? '');
      if (!parsed.success) throw new Error('Usage: invite <email>');
      await withOrm(async (orm) => {
        const em = orm.em.fork();
        if (await em.findOne(BetaInvite, { email: parsed.data })) {
          console.log(`${parsed.data} was already invited.`);
          return;
        }
        em.create(BetaInvite, { email: parsed.data, invitedBy: null });
        await em.flush();
        console.log(`Invited ${parsed.data}.`);
      });
    },
  },
  'client:create': {
    usage:
      'client:create --name <name> --redirect-uri <uri> [--redirect-uri <uri>...] [--post-logout-redirect-uri <uri>...] [--public] [--scopes "openid profile ..."] [--description <text>]\n      register a third-party app; prints its client id and secret once',
    run: async (args) => {
      const { values } = parseArgs({
        args,
        options: {
          name: { type: 'string' },
          'redirect-uri': { type: 'string', multiple: true },
          'post-logout-redirect-uri': { type: 'string', multiple: true },
          public: { type: 'boolean', default: false },
          scopes: { type: 'string' },
          description: { type: 'string' },
        },
        strict: true,
      });
      const parsed = CreateOAuthClientSchema.safeParse({
        name: values.name ?? '',
        client_type: values.public ? 'public' : 'confidential',
        redirect_uris: values['redirect-uri'] ?? [],
        ...(values['post-logout-redirect-uri'] ? { post_logout_redirect_uris: values['post-logout-redirect-uri'] } : {}),
        ...(values.scopes ? { allowed_scopes: values.scopes.split(/\s+/).filter(Boolean) } : {}),
        ...(values.description ? { description: values.description } : {}),
      });
      if (!parsed.success) {
        throw new Error(
          `client:create: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${render(issueText(issue), 'en')}`).join('; ')}`,
        );
      }
      await withOrm(async (orm) => {
        const created = await new ClientsService(orm.em.fork()).create(parsed.data, null);
        await new AuditService(orm.em.fork()).record({
          action: 'admin.oauth_client_created',
          actor: { id: null, label: 'cli' },
          target: { type: 'oauth_client', id: created.client_id },
        });
        console.log(`client_id=${created.client_id}`);
        console.log(created.client_secret ? `client_secret=${created.client_secret}` : 'client_secret= (public client: none; use PKCE)');
        console.log(
          `type=${created.client_type} scopes="${created.allowed_scopes.join(' ')}" redirect_uris=${created.redirect_uris.join(',')}` +
            (created.post_logout_redirect_uris.length ? ` post_logout_redirect_uris=${created.post_logout_redirect_uris.join(',')}` : ''),
        );
        if (created.client_secret) console.error('Keep the secret now: only its hash is stored and it will not be shown again.');
      });
    },
  },
  'oauth:rotate-signing-key': {
    usage: 'oauth:rotate-signing-key  make a new ID token signing key: published at once, signing 5 s later; the old one stays in the JWKS for 7 days',
    run: async () => {
      const { ring, redisUrl, queuePrefix } = configuredKeyRing();
      await withOrm(async (orm) => {
        const { kid, activatesAt } = await new SigningKeysService(orm.em.fork(), ring).rotate();
        await new AuditService(orm.em.fork()).record({
          action: 'admin.signing_key_rotated',
          actor: { id: null, label: 'cli' },
          target: { type: 'signing_key', id: kid },
        });
        const announced = await announceSigningKeys(redisUrl, queuePrefix);
        console.log(
          `New signing key ${kid}: every process publishes it in its JWKS ${announced ? 'now' : 'within a second (Redis did not answer; they read it at their next poll)'}, and signs ID tokens with it from ${activatesAt.toISOString()}.`,
        );
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
    console.error(
      `Usage: npm run cli -- <command>\n\nCommands:\n${Object.values(COMMANDS)
        .map((c) => `  ${c.usage}`)
        .join('\n')}`,
    );
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
