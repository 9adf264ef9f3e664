import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@life/test-support';
import pg from 'pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN_JS = path.join(here, '..', '..', 'backend', 'dist', 'main.js');
const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface NewcomerApp {
  baseURL: string;
  databaseUrl: string;
  /** What the app printed (stdout and stderr), for the quiet-console checks and failures. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The app as a newcomer starts it with `npm start`: NODE_ENV development, no provider, service
 * or Stripe credentials, no QUEUE_PREFIX, the admin's e-mail in ADMIN_EMAILS. Only the database
 * is a fresh PostgreSQL one (instead of the embedded one in ./data) and the data folder is a
 * temporary one, so the run leaves nothing behind.
 */
export async function startNewcomerApp(adminEmails: string[]): Promise<NewcomerApp> {
  const database = `life_newcomer_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${database}"`);
  await admin.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'life-newcomer-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    DATA_DIR: dataDir,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    ADMIN_EMAILS: adminEmails.join(','),
  };
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [MAIN_JS], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited (${child.exitCode}) before it was ready:\n${output}`);
    const ok = await fetch(`${baseURL}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`The app was not ready within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    baseURL,
    databaseUrl: databaseUrl.toString(),
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${database}" with (force)`);
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
