import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ADMIN_URL = TEST_DATABASE_ADMIN_URL;

export interface TestDatabase {
  name: string;
  url: string;
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<T>>;
  drop(): Promise<void>;
}

function urlFor(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A brand-new, empty database on the real PostgreSQL server, for one test file. */
export async function createTestDatabase(prefix = 'life_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = urlFor(name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined); // a dropped test database ends its idle clients
  return {
    name,
    url,
    query: (sql, params) => pool.query(sql, params),
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      // Let closing pools finish first: forcing the drop under a connection that is still
      // closing makes its client emit an error nobody listens to.
      for (let attempt = 0; attempt < 50; attempt++) {
        const open = await client.query(`select count(*)::int as n from pg_stat_activity where datname = $1`, [name]);
        if ((open.rows[0] as { n: number }).n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}
