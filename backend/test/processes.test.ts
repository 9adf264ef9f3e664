import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort, pollUntil } from '@life/test-support';
import { TEST_REDIS_URL } from './helpers/test-app.js';
import { createTestDatabase } from './helpers/test-database.js';

const backendDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mainJs = path.join(backendDir, 'dist', 'main.js');
const workerJs = path.join(backendDir, 'dist', 'worker.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(script: string, env: Record<string, string>, args: string[] = []): Started {
  let output = '';
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** How long a process may take to come up, and what to show when it does not: its output. */
const waitingOn = (started: Started) => ({ timeoutMs: 45_000, intervalMs: 200, detail: () => `Output:\n${started.output()}` });

async function stop(started: Started): Promise<number | null> {
  started.child.kill('SIGTERM');
  return started.exited;
}

describe('the real processes', () => {
  it('npm start without DATABASE_URL serves from the embedded database and keeps data across a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'life-data-'));
    const port = await freePort();
    const dbPort = await freePort();
    const env = { PORT: String(port), EMBEDDED_DB_PORT: String(dbPort), DATA_DIR: dataDir, QUEUE_PREFIX: `lifeproc${randomBytes(3).toString('hex')}` };

    const first = start(mainJs, env);
    await pollUntil(async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200, 'the first web process to be healthy', waitingOn(first));
    const client = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres` });
    await client.connect();
    await client.query(`insert into beta_invites (email, created_at) values ('kept@example.com', now())`);
    await client.end();
    expect(await stop(first)).toBe(0);

    const second = start(mainJs, env);
    await pollUntil(async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200, 'the second web process to be healthy', waitingOn(second));
    const again = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres` });
    await again.connect();
    const rows = await again.query(`select email from beta_invites`);
    await again.end();
    expect(rows.rows).toEqual([{ email: 'kept@example.com' }]);
    expect(await stop(second)).toBe(0);
  }, 120_000);

  it('prints "Life is running at…" without Nest\'s route-mapping lines at the default log level, and names its queue prefix', async () => {
    const db = await createTestDatabase();
    const port = await freePort();
    // No LOG_LEVEL (info, the default) and no QUEUE_PREFIX (derived from the database).
    const started = start(mainJs, { PORT: String(port), DATABASE_URL: db.url, ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, LOG_LEVEL: '' });
    try {
      await pollUntil(async () => started.output().includes('Life is running at'), 'the start-up line', waitingOn(started));
      // Nest writes its buffered start-up lines around the same moment: wait for its last one (now at debug) to be due.
      await pollUntil(async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200, 'the app to answer', waitingOn(started));
      const output = started.output();
      expect(output).not.toMatch(/RouterExplorer|RoutesResolver|Mapped \{|InstanceLoader|dependencies initialized/);
      // Info lines of our own still show (the default level is info), e.g. the worker's start.
      expect(output).toMatch(/"level":30.*Worker life_[0-9a-f]{10}:workers:/);
      expect(output).toMatch(/queue prefix life_[0-9a-f]{10}/);
      expect(await stop(started)).toBe(0);
    } finally {
      started.child.kill('SIGKILL');
      const redis = new Redis(TEST_REDIS_URL);
      const prefix = /queue prefix (life_[0-9a-f]{10})/.exec(started.output())?.[1];
      const keys = prefix ? await redis.keys(`${prefix}:*`) : [];
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await db.drop();
    }
  }, 60_000);

  it('exits non-zero with instructions when Redis does not answer', async () => {
    const port = await freePort();
    const deadPort = await freePort();
    const started = start(mainJs, { PORT: String(port), REDIS_URL: `redis://127.0.0.1:${deadPort}`, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'life-data-')) });
    const code = await started.exited;
    expect(code).toBe(1);
    expect(started.output()).toContain(`Life could not reach Redis at redis://127.0.0.1:${deadPort}`);
    expect(started.output()).toContain('redis-server --daemonize yes');
    expect(started.output()).not.toMatch(/at .*\.js:\d+/);
  }, 30_000);

  it('exits non-zero with the list of problems on invalid configuration', async () => {
    const started = start(mainJs, { PORT: 'seventy', REDIS_URL: 'http://nope' });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('Invalid configuration');
    expect(started.output()).toContain('PORT');
    expect(started.output()).toContain('REDIS_URL');
  }, 30_000);

  it('runs the worker on its own: it announces itself in Redis and leaves cleanly on SIGTERM', async () => {
    const db = await createTestDatabase();
    const prefix = `lifeworker${randomBytes(3).toString('hex')}`;
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const worker = start(workerJs, { DATABASE_URL: db.url, QUEUE_PREFIX: prefix, ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` });
      await pollUntil(async () => (await redis.keys(`${prefix}:workers:*`)).length === 1, 'the worker to report', waitingOn(worker));
      expect(await stop(worker)).toBe(0);
      expect(await redis.keys(`${prefix}:workers:*`)).toEqual([]);
    } finally {
      redis.disconnect();
      await db.drop();
    }
  }, 60_000);

  it('refuses to run a separate worker on the embedded database', async () => {
    const started = start(workerJs, { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'life-data-')) });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('needs DATABASE_URL');
  }, 30_000);
});
