import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { TestDatabase } from './test-database.js';

export interface SeededUser {
  id: string;
  email: string;
  username: string;
  token: string;
}

/** Users with live sessions, stored as the app stores them (only the token's SHA-256). */
export async function seedUsers(db: TestDatabase, count: number, role: 'user' | 'admin' = 'user'): Promise<SeededUser[]> {
  const users: SeededUser[] = [];
  for (let i = 0; i < count; i++) {
    const name = `u${randomBytes(5).toString('hex')}`;
    users.push({ id: randomUUID(), email: `${name}@example.com`, username: name, token: randomBytes(32).toString('base64url') });
  }
  const values = (fn: (user: SeededUser, i: number) => string) => users.map(fn).join(', ');
  await db.query(
    `insert into users (id, created_at, updated_at, username, email, email_verified, role) values ${values((_, i) => `($${i * 4 + 1}, now(), now(), $${i * 4 + 2}, $${i * 4 + 3}, true, $${i * 4 + 4})`)}`,
    users.flatMap((user) => [user.id, user.username, user.email, role]),
  );
  await db.query(
    `insert into sessions (id, token_hash, user_id, created_at, last_used_at, expires_at) values ${values((_, i) => `(gen_random_uuid(), $${i * 2 + 1}, $${i * 2 + 2}, now(), now(), now() + interval '1 day')`)}`,
    users.flatMap((user) => [createHash('sha256').update(user.token).digest('hex'), user.id]),
  );
  return users;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
