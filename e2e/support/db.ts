import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import pg from 'pg';

/** Direct access to the e2e database, for seeding what a test needs (never to fake app behaviour). */
export async function withDb<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Runs `work` while holding a PostgreSQL advisory lock named `name` (on its own connection), so
 * specs in different workers that change and read the same shared catalog row do not overlap
 * (googlefit's status: services-connect.spec turns it active for a moment, dev-providers.spec
 * reads it in maintenance).
 */
export async function holdingLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  return withDb(async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
}

/**
 * Takes the advisory lock `name` on a connection of its own and keeps it until the returned
 * release is called: for a spec that points a shared catalog row at its own stand-in from its
 * `beforeAll` to its `afterAll` (two workers must not point the same row at two stand-ins).
 */
export async function takeLock(name: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  await client.query('select pg_advisory_lock(hashtext($1))', [name]);
  return async () => {
    await client.query('select pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    await client.end();
  };
}

export interface SeededSession {
  token: string;
  user: { id: string; username: string; email: string; role: 'user' | 'admin' };
}

/** A user and a live session, stored as the app stores them (only the token's SHA-256). */
export async function seedSession(role: 'user' | 'admin', name = `${role}${randomBytes(3).toString('hex')}`): Promise<SeededSession> {
  const token = randomBytes(32).toString('base64url');
  const user = { id: randomUUID(), username: name, email: `${name}@example.com`, role };
  await withDb(async (client) => {
    await client.query(`insert into users (id, created_at, updated_at, username, email, email_verified, role) values ($1, now(), now(), $2, $3, true, $4)`, [
      user.id,
      user.username,
      user.email,
      role,
    ]);
    await client.query(
      `insert into sessions (id, token_hash, user_id, created_at, last_used_at, expires_at) values ($1, $2, $3, now(), now(), now() + interval '1 day')`,
      [randomUUID(), createHash('sha256').update(token).digest('hex'), user.id],
    );
  });
  return { token, user };
}

/** Signs a page in the way the app keeps a session: token and user in local storage. */
export async function signIn(page: Page, { token, user }: SeededSession): Promise<void> {
  await page.addInitScript(
    ([t, u]) => {
      localStorage.setItem('authToken', t);
      localStorage.setItem('user', u);
    },
    [token, JSON.stringify(user)] as const,
  );
}
