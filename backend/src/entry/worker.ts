import 'reflect-metadata';
import { closeOnSignals, createWorkerContext, exitOnStartupError, prepareRuntime } from '../core/bootstrap.js';

/** Queue consumers only, no HTTP. Scale these separately from the web processes. */
export async function main(): Promise<void> {
  const runtime = await prepareRuntime('worker');
  const app = await createWorkerContext(runtime);
  closeOnSignals(() => app.close());
  console.log('Life worker is running.');
}

export const onError = exitOnStartupError;
