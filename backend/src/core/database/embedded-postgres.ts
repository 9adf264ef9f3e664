import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

export const embeddedUrlFile = (dataDir: string) => path.join(dataDir, 'embedded-database-url');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts PGlite (real PostgreSQL compiled to WASM) with its data in `<dataDir>/pglite`
 * and serves it over the PostgreSQL wire protocol on loopback, so `pg` and MikroORM
 * work unchanged. Used only when DATABASE_URL is not set: a newcomer's default, not
 * a production database (one backend, serialized transactions).
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedPostgres> {
  const dir = path.join(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  // Loaded here, not at the top: a process with DATABASE_URL (production) never needs PGlite,
  // and importing it cost about 0.5 MB of code in every process.
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-socket')]);
  const db = await PGlite.create(dir);
  const listenPort = port === 0 ? await freePort() : port;
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: listenPort, maxConnections: 16 });
  await server.start();
  const url = `postgresql://postgres:postgres@127.0.0.1:${listenPort}/postgres`;
  // Lets `npm run cli` reach the running embedded database without DATABASE_URL.
  const urlFile = embeddedUrlFile(dataDir);
  writeFileSync(urlFile, url + '\n');
  return {
    url,
    async stop() {
      rmSync(urlFile, { force: true });
      await server.stop();
      await db.close();
    },
  };
}
