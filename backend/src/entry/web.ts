import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { closeOnSignals, createWebApp, exitOnStartupError, prepareRuntime, type Runtime } from '../bootstrap.js';
import { loadConfig } from '../config/config.js';
import { sleep, Stopping } from '../core/lifecycle/stopping.js';

/**
 * The web process: JSON API + the built SPA on one port. Without --web-only it also
 * consumes the queues (the `npm start` default); `npm run start:worker` runs them apart.
 */
export async function main(): Promise<void> {
  const role = process.argv.includes('--web-only') ? 'web' : 'all';
  const config = loadConfig();
  const { drainMs, graceMs } = config.shutdown;
  const running: { app?: NestFastifyApplication; runtime?: Runtime } = {};
  // Installed before start-up: a SIGTERM that arrives while modules boot still closes cleanly.
  const started = closeOnSignals({
    graceMs,
    // Readiness answers 503 from now on; the load balancer sees it and stops sending requests here,
    // which are all still served meanwhile (decision 0029, docs/operations.md "Stopping").
    drain: async () => {
      running.app?.get(Stopping).begin();
      if (drainMs > 0) console.error(`Not ready: serving for ${drainMs} ms more while the load balancer drains this process (SHUTDOWN_DRAIN_MS).`);
      await sleep(drainMs);
    },
    close: async () => {
      running.app?.get(Stopping).begin();
      await running.app?.close();
      await running.runtime?.embedded?.stop();
    },
  });
  const runtime = (running.runtime = await prepareRuntime(role, process.env, config));
  const app = (running.app = await createWebApp(runtime, role));
  await app.listen({ port: runtime.config.port, host: runtime.config.host });
  started();
  const url = await app.getUrl();
  const where = runtime.embedded ? `embedded PostgreSQL in ${runtime.config.dataDir}` : 'PostgreSQL from DATABASE_URL';
  console.log(`\nLife is running at ${runtime.config.appUrl} (listening on ${url}; ${where}; queue prefix ${runtime.config.queuePrefix}; role ${role}).`);
  if (runtime.generatedKey) console.log(`Generated a development encryption key in ${runtime.config.dataDir}.`);
}

export const onError = exitOnStartupError;
