import { randomBytes } from 'node:crypto';
import type { DataExport } from '@life/contracts';
import { bearer, seedUsers } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const KEYS = `k1:${randomBytes(32).toString('base64')}`;

/**
 * Issue 21, point 6: 'Descargar mis datos' asked for many times at once through two app
 * instances (two web processes, no worker: the export stays pending) is one export (decision 0030).
 */
describe('data export requests across two app instances (real PostgreSQL + Redis)', () => {
  let a: TestApp;
  let b: TestApp;

  const request = async (t: TestApp, token: string) => {
    const response = await t.fetch('/api/users/me/export', { method: 'POST', headers: bearer(token) });
    return { status: response.status, body: (await response.json()) as DataExport };
  };
  const exportsOf = async (userId: string) =>
    (await a.db.query<{ id: string; status: string }>(`select id, status from data_exports where user_id = $1 order by created_at`, [userId])).rows;

  beforeAll(async () => {
    a = await startTestApp({ role: 'web', env: { ENCRYPTION_KEYS: KEYS } });
    b = await startTestApp({ role: 'web', db: a.db, env: { ENCRYPTION_KEYS: KEYS, QUEUE_PREFIX: a.queuePrefix } });
  });

  afterAll(async () => {
    await b?.app.close();
    await a?.close();
  });

  it('N requests at the same moment on two instances make one pending export, and every answer names it', async () => {
    const [person] = await seedUsers(a.db, 1);
    // More than the hourly limit (10): only the request that makes the export counts against it.
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => request(i % 2 ? a : b, person!.token)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
    const rows = await exportsOf(person!.id);
    expect(rows).toEqual([{ id: expect.any(String), status: 'pending' }]);
    expect(new Set(answers.map((answer) => answer.body.id))).toEqual(new Set([rows[0]!.id]));
    expect(answers.every((answer) => answer.body.status === 'pending')).toBe(true);
  });

  it('once the export is no longer pending, a new request makes a new one (again one for many at once)', async () => {
    const [person] = await seedUsers(a.db, 1);
    const first = await request(a, person!.token);
    await a.db.query(`update data_exports set status = 'ready', finished_at = now(), expires_at = now() + interval '1 day', content = '{}' where id = $1`, [
      first.body.id,
    ]);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => request(i % 2 ? a : b, person!.token)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
    const rows = await exportsOf(person!.id);
    expect(rows.map((row) => row.status)).toEqual(['ready', 'pending']);
    expect(new Set(answers.map((answer) => answer.body.id))).toEqual(new Set([rows[1]!.id]));
  });

  it('the database itself refuses a second open export for one person', async () => {
    const [person] = await seedUsers(a.db, 1);
    await request(b, person!.token);
    await expect(
      a.db.query(`insert into data_exports (id, user_id, status, created_at, attempts) values (gen_random_uuid(), $1, 'running', now(), 0)`, [person!.id]),
    ).rejects.toThrow(/data_exports_one_open_per_user/);
  });
});
