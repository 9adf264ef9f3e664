import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { closeOnSignals, createWebApp, exitOnStartupError, prepareRuntime, type Runtime } from '../bootstrap.js';

/**
 * The web process: JSON API + the built SPA on one port. Without --web-only it also
 * consumes the queues (the `npm start` default); `npm run start:worker` runs them apart.
 */
export async function main(): Promise<void> {
  const role = process.argv.includes('--web-only') ? 'web' : 'all';
  const running: { app?: NestFastifyApplication; runtime?: Runtime } = {};
  // Installed before start-up: a SIGTERM that arrives while modules boot still closes cleanly.
  const started = closeOnSignals(async () => {
    await running.app?.close();
    await running.runtime?.embedded?.stop();
  });
  const runtime = (running.runtime = await prepareRuntime(role));
  const app = (running.app = await createWebApp(runtime, role));
  await app.listen({ port: runtime.config.port, host: runtime.config.host });
  started();
  const url = await app.getUrl();
  const where = runtime.embedded ? `embedded PostgreSQL in ${runtime.config.dataDir}` : 'PostgreSQL from DATABASE_URL';
  console.log(`\nLife is running at ${runtime.config.appUrl} (listening on ${url}; ${where}; queue prefix ${runtime.config.queuePrefix}; role ${role}).`);
  if (runtime.generatedKey) console.log(`Generated a development encryption key in ${runtime.config.dataDir}.`);
}

export const onError = exitOnStartupError;
