import 'reflect-metadata';
import { closeOnSignals, createWorkerContext, exitOnStartupError, prepareRuntime } from './core/bootstrap.js';
import { assertNodeVersion } from './core/node-version.js';

/** Queue consumers only, no HTTP. Scale these separately from the web processes. */
async function main(): Promise<void> {
  assertNodeVersion();
  const runtime = await prepareRuntime('worker');
  const app = await createWorkerContext(runtime);
  closeOnSignals(() => app.close());
  console.log('Life worker is running.');
}

main().catch(exitOnStartupError);
