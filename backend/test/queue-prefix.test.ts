import { Redis } from 'ioredis';
import { pollUntil } from '@life/test-support';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, TEST_REDIS_URL, type TestApp } from './helpers/test-app.js';

/**
 * Issue 20, point 2: two installations on one Redis with the default QUEUE_PREFIX. Each derives
 * its prefix from its own database, so neither takes the other's jobs (before, the second copy
 * took the first one's data-export job and the first stayed on "Preparando tu archivo…"), and
 * every process of one installation derives the same prefix. Salud shows the prefix in use.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const chunk = (fields: string[]): [string, string][] => fields.flatMap((field, i) => (i % 2 === 0 ? [[field, fields[i + 1]!] as [string, string]] : []));

/** No QUEUE_PREFIX (empty is unset): the default, derived from the database. */
const DEFAULT_PREFIX = { QUEUE_PREFIX: '' };

describe('the default queue prefix: one per installation (real PostgreSQL + Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  const redis = new Redis(TEST_REDIS_URL);

  beforeAll(async () => {
    // Two installations, each with its web process and queue workers, on the same Redis.
    a = await startTestApp({ role: 'all', env: DEFAULT_PREFIX });
    b = await startTestApp({ role: 'all', env: DEFAULT_PREFIX });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    redis.disconnect();
  });

  it('gives two databases two prefixes, and shows each in its own Salud', async () => {
    expect(a.queuePrefix).toMatch(/^life_[0-9a-f]{10}$/);
    expect(b.queuePrefix).toMatch(/^life_[0-9a-f]{10}$/);
    expect(a.queuePrefix).not.toBe(b.queuePrefix);
    for (const t of [a, b]) {
      const [admin] = await seedUsers(t.db, 1, 'admin');
      const response = await t.fetch('/api/admin/health', { headers: bearer(admin!.token) });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Json).queuePrefix).toBe(t.queuePrefix);
    }
  });

  it('gives a second process on the same database the same prefix', async () => {
    // Another web process of installation A, its address spelt with a query string of its own.
    const sameDatabase = `${a.db.url}${a.db.url.includes('?') ? '&' : '?'}application_name=second`;
    const second = await startTestApp({ role: 'web', db: a.db, env: { ...DEFAULT_PREFIX, DATABASE_URL: sameDatabase } });
    try {
      expect(second.queuePrefix).toBe(a.queuePrefix);
    } finally {
      // The database is A's: close only this process.
      await second.app.close();
    }
  });

  it("never lets one installation's worker take the other's jobs", async () => {
    const people: SeededUser[] = await seedUsers(a.db, 4);
    const started = await Promise.all(
      people.map(async (person) => {
        const response = await a.fetch('/api/users/me/export', { method: 'POST', headers: bearer(person.token) });
        expect(response.status).toBe(202);
        return { person, id: ((await response.json()) as Json).id as string };
      }),
    );
    // Every export of A is built by A's worker: none is taken (and failed) by B's.
    await pollUntil(async () => {
      const states = await Promise.all(
        started.map(async ({ person, id }) => ((await (await a.fetch(`/api/users/me/export/${id}`, { headers: bearer(person.token) })).json()) as Json).status),
      );
      return states.every((status) => status === 'ready');
    }, "A's exports to be ready");
    // BullMQ's event stream of each queue: A's worker completed every job; B's queue never saw one.
    const events = async (t: TestApp) =>
      (await redis.xrange(`${t.queuePrefix}:data-export:events`, '-', '+')).map(([, fields]) => Object.fromEntries(chunk(fields)) as Record<string, string>);
    const completedInA = (await events(a)).filter((event) => event.event === 'completed').map((event) => event.jobId);
    expect(completedInA.sort()).toEqual(started.map(({ id }) => id).sort());
    expect((await events(b)).filter((event) => event.jobId)).toEqual([]);
  });
});
