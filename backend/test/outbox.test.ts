import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { freePort, pollUntil } from '@life/test-support';
import { createWorkerContext, prepareRuntime } from '../src/bootstrap.js';
import { OUTBOX_QUEUE } from '../src/core/outbox/outbox.service.js';
import { ACCOUNT_ERASURE_QUEUE, erasureJobId } from '../src/modules/data-rights/jobs/data-rights.jobs.js';
import { bearer, seedUsers } from './helpers/seed.js';
import { TcpProxy } from './helpers/tcp-proxy.js';
import { TEST_REDIS_URL, testEnv } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/**
 * The transactional outbox against a real crash: a real `node dist/main.js --web-only` process
 * commits an erasure request (the account's mark and the outbox message, one transaction) while
 * Redis does not answer it, and is killed with SIGKILL before it could hand the message to the
 * queue. A worker started afterwards finds the message, relays it, and the account is erased:
 * nothing was lost between the commit and the enqueue.
 */

const mainJs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');
const targetOf = (url: string) => {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
};

describe('outbox: a process killed between the commit and the enqueue loses nothing', () => {
  const encryptionKeys = `k1:${randomBytes(32).toString('base64')}`;
  const queuePrefix = `lifetest${randomBytes(4).toString('hex')}`;
  let db: TestDatabase;
  let redis: TcpProxy;
  let web: ChildProcess | undefined;
  let webOutput = '';
  let worker: INestApplicationContext | undefined;
  let exited: Promise<unknown> = Promise.resolve();

  beforeAll(async () => {
    db = await createTestDatabase();
    // The web process reaches Redis only through this proxy, so the test can make Redis hang for it alone.
    redis = await TcpProxy.start(targetOf(TEST_REDIS_URL));
  });

  afterAll(async () => {
    if (web && web.exitCode === null && web.signalCode === null) web.kill('SIGKILL');
    await exited;
    await worker?.close();
    await redis?.close();
    const client = new Redis(TEST_REDIS_URL);
    const keys = await client.keys(`${queuePrefix}:*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
    await db?.drop();
  });

  it('a worker started afterwards relays the committed message and the account is erased', async () => {
    const port = await freePort();
    web = spawn(process.execPath, [mainJs, '--web-only'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: db.url,
        REDIS_URL: redis.proxied(TEST_REDIS_URL),
        QUEUE_PREFIX: queuePrefix,
        ENCRYPTION_KEYS: encryptionKeys,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    web.stdout?.on('data', (chunk: Buffer) => (webOutput += chunk.toString()));
    web.stderr?.on('data', (chunk: Buffer) => (webOutput += chunk.toString()));
    exited = new Promise((resolve) => web!.on('exit', resolve));
    const base = `http://127.0.0.1:${port}`;
    await pollUntil(async () => (await fetch(`${base}/api/health`)).ok, 'the web process to answer', { timeoutMs: 60_000, detail: () => webOutput });

    const [person] = await seedUsers(db, 1);
    // Redis stops answering the web process: the commit goes through, the enqueue cannot.
    redis.hang();
    const request = fetch(`${base}/api/users/me/erase`, {
      method: 'POST',
      headers: { ...bearer(person!.token), 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: 'ELIMINAR' }),
    }).catch((error: unknown) => error);
    const staged = await pollUntil(
      async () =>
        (await db.query<{ id: string; relayed_at: Date | null }>(`select id, relayed_at from outbox_messages where payload->>'userId' = $1`, [person!.id]))
          .rows[0],
      'the erasure request to commit',
      { detail: () => webOutput },
    );
    // Killed right after the commit, before it could relay.
    web.kill('SIGKILL');
    await exited;
    // The request never got its answer: the process died first.
    expect(String(await request)).toContain('fetch failed');

    expect(staged.relayed_at).toBeNull();
    const [mark] = (await db.query<{ erasure_requested_at: Date | null }>('select erasure_requested_at from users where id = $1', [person!.id])).rows;
    expect(mark?.erasure_requested_at).toBeInstanceOf(Date);
    const outboxQueue = new Queue(OUTBOX_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix: queuePrefix });
    const erasureQueue = new Queue(ACCOUNT_ERASURE_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix: queuePrefix });
    try {
      // Nothing reached Redis: without the outbox this request would be lost.
      expect(await outboxQueue.getJob(staged.id)).toBeUndefined();
      expect(await erasureQueue.getJob(erasureJobId(person!.id))).toBeUndefined();

      // A worker (Redis reachable), with the data-rights sweeper far away: only the outbox can recover it.
      worker = await createWorkerContext(
        await prepareRuntime('worker', testEnv(db, queuePrefix, { ENCRYPTION_KEYS: encryptionKeys, OUTBOX_SWEEP_MS: '300', DATA_RIGHTS_SWEEP_MS: '3600000' })),
      );
      await pollUntil(async () => (await db.query('select 1 from users where id = $1', [person!.id])).rowCount === 0, 'the account to be erased', {
        timeoutMs: 30_000,
      });
      // Relayed, then marked delivered once every handler succeeded (only delivered rows are ever purged).
      const delivered = await pollUntil(
        async () =>
          (
            await db.query<{ relayed_at: Date | null; delivered_at: Date | null }>('select relayed_at, delivered_at from outbox_messages where id = $1', [
              staged.id,
            ])
          ).rows.find((row) => row.delivered_at !== null),
        'the message to be marked delivered',
      );
      expect(delivered.relayed_at).toBeInstanceOf(Date);
      const erased = await db.query(`select details from audit_events where action = 'account.erased' and target_id = $1`, [person!.id]);
      expect(erased.rowCount).toBe(1);
    } finally {
      await outboxQueue.close();
      await erasureQueue.close();
    }
  });
});
