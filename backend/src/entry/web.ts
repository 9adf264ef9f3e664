import 'reflect-metadata';
import { closeOnSignals, createWebApp, exitOnStartupError, prepareRuntime } from '../core/bootstrap.js';

/**
 * The web process: JSON API + the built SPA on one port. Without --web-only it also
 * consumes the queues (the `npm start` default); `npm run start:worker` runs them apart.
 */
export async function main(): Promise<void> {
  const role = process.argv.includes('--web-only') ? 'web' : 'all';
  const runtime = await prepareRuntime(role);
  const app = await createWebApp(runtime, role);
  closeOnSignals(async () => {
    await app.close();
    await runtime.embedded?.stop();
  });
  await app.listen({ port: runtime.config.port, host: runtime.config.host });
  const url = await app.getUrl();
  const where = runtime.embedded ? `embedded PostgreSQL in ${runtime.config.dataDir}` : 'PostgreSQL from DATABASE_URL';
  console.log(`\nLife is running at ${runtime.config.appUrl} (listening on ${url}; ${where}; role ${role}).`);
  if (runtime.generatedKey) console.log(`Generated a development encryption key in ${runtime.config.dataDir}.`);
}

export const onError = exitOnStartupError;
