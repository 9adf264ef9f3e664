import { MikroORM } from '@mikro-orm/postgresql';
import { appOrmConfig } from '../src/database.js';
import { MIGRATIONS } from '../src/migrations/index.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

const TABLES = [
  'users',
  'audit_events',
  'oauth_grants',
  'oauth_codes',
  'oauth_tokens',
  'oauth_signing_keys',
  'service_connections',
  'user_identities',
  'edition_stock',
  'seat_reservations',
  'memberships',
  'stripe_events',
  'sessions',
  'login_providers',
  'beta_invites',
  'external_services',
  'user_service_credentials',
  'oauth_clients',
  'contact_messages',
  'data_exports',
  'outbox_messages',
  'reconnect_notices',
  'day_views',
  'day_people',
];

async function tables(db: TestDatabase): Promise<string[]> {
  const result = await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = 'public' and table_name <> 'mikro_orm_migrations'`,
  );
  return result.rows.map((row) => row.table_name).sort();
}

describe('migrations on an empty database', () => {
  let db: TestDatabase;
  let orm: MikroORM;

  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await MikroORM.init(appOrmConfig(db.url));
  });

  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
  });

  it('go up, down to nothing, and up again', async () => {
    expect(await tables(db)).toEqual([]);
    const up = await orm.migrator.up();
    expect(up).toHaveLength(MIGRATIONS.length);
    expect(await tables(db)).toEqual([...TABLES].sort());

    await orm.migrator.down({ to: 0 });
    expect(await tables(db)).toEqual([]);

    await orm.migrator.up();
    expect(await tables(db)).toEqual([...TABLES].sort());
  });

  it('leave nothing for the entities to add (migrations match the entities)', async () => {
    const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('clear the OAuth app a login-type row kept, and nothing of other rows (decision 0040)', async () => {
    await orm.migrator.down({ to: 'Migration20261125080000_billing_states' });
    const insert = `insert into external_services (id, created_at, updated_at, service_name, service_type, status, app_id, app_secret_encrypted, scopes, base_url, auth_url, token_url, user_url, token_auth, token_body, send_scope, pkce, extra_auth_params, extra_headers, api_auth_scheme, revoke_style)
      values (gen_random_uuid(), now(), now(), $1, $2, 'active', 'Iv1.copy', 'v1.k.a.b.c', 'read:user', 'https://github.com', 'https://github.com/login/oauth/authorize', 'https://github.com/login/oauth/access_token', 'https://api.github.com/user', 'body', 'form', true, true, '{}', '{}', 'Bearer', 'none')`;
    await db.query(insert, ['githublogin', 'login']);
    await db.query(insert, ['github', 'código']);
    await orm.migrator.up();
    const rows = await db.query(`select service_name, app_id, app_secret_encrypted, scopes, auth_url, token_url, user_url from external_services order by 1`);
    expect(rows.rows).toEqual([
      {
        service_name: 'github',
        app_id: 'Iv1.copy',
        app_secret_encrypted: 'v1.k.a.b.c',
        scopes: 'read:user',
        auth_url: 'https://github.com/login/oauth/authorize',
        token_url: 'https://github.com/login/oauth/access_token',
        user_url: 'https://api.github.com/user',
      },
      { service_name: 'githublogin', app_id: null, app_secret_encrypted: null, scopes: null, auth_url: null, token_url: null, user_url: null },
    ]);
    await db.query(`delete from external_services`);
  });

  it('enforce case-insensitive unique usernames', async () => {
    await db.query(`insert into users (id, created_at, updated_at, username, email) values (gen_random_uuid(), now(), now(), 'Ana', 'ana@example.com')`);
    await expect(
      db.query(`insert into users (id, created_at, updated_at, username, email) values (gen_random_uuid(), now(), now(), 'ana', 'other@example.com')`),
    ).rejects.toThrow(/users_username_lower_unique/);
  });
});
