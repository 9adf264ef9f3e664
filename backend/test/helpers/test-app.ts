import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { createWebApp, prepareRuntime, type Runtime } from '../../src/bootstrap.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { brotliCompressSync, gzipSync } from 'node:zlib';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestApp {
  app: NestFastifyApplication;
  runtime: Runtime;
  db: TestDatabase;
  url: string;
  queuePrefix: string;
  staticDir: string;
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** A static dir with a recognisable index.html, so SPA fallbacks can be asserted. */
export function fakeStaticDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'life-static-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root">life-spa</div></body></html>');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log("life");');
  // A build's asset with the Brotli and gzip copies frontend/scripts/compress-assets.mjs writes.
  const big = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `palabra-${i}`))};\n`;
  writeFileSync(path.join(dir, 'assets', 'big-def456.js'), big);
  writeFileSync(path.join(dir, 'assets', 'big-def456.js.br'), brotliCompressSync(big));
  writeFileSync(path.join(dir, 'assets', 'big-def456.js.gz'), gzipSync(big));
  return dir;
}

export function testEnv(db: TestDatabase, queuePrefix: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...extra,
  };
}

/**
 * Boots the real app (real PostgreSQL in a fresh database, real Redis) on a free port. Pass `db`
 * to boot it on a database made beforehand (e.g. to reach it through a proxy in `env.DATABASE_URL`).
 */
export async function startTestApp(options: { role?: 'web' | 'all'; env?: Record<string, string>; db?: TestDatabase } = {}): Promise<TestApp> {
  const db = options.db ?? (await createTestDatabase());
  const staticDir = options.env?.STATIC_DIR ?? fakeStaticDir();
  const runtime = await prepareRuntime(
    options.role ?? 'web',
    testEnv(db, `lifetest${randomBytes(4).toString('hex')}`, { STATIC_DIR: staticDir, ...options.env }),
  );
  const app = await createWebApp(runtime, options.role ?? 'web');
  // PORT is 0 (a free port) unless a test needs to know the URL before boot (APP_URL).
  await app.listen({ port: runtime.config.port, host: '127.0.0.1' });
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  // A random one unless `env.QUEUE_PREFIX` names one, or is empty for the default (derived from the database).
  const { queuePrefix } = runtime.config;
  return {
    app,
    runtime,
    db,
    url,
    queuePrefix,
    staticDir,
    fetch: (pathname, init) => fetch(`${url}${pathname}`, init),
    async close() {
      await app.close();
      const redis = new Redis(TEST_REDIS_URL);
      const keys = await redis.keys(`${queuePrefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await db.drop();
    },
  };
}
