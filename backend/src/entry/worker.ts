import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { closeOnSignals, createWorkerContext, exitOnStartupError, prepareRuntime } from '../bootstrap.js';

/** Queue consumers only, no HTTP. Scale these separately from the web processes. */
export async function main(): Promise<void> {
  const running: { app?: INestApplicationContext } = {};
  // Installed before start-up: a SIGTERM that arrives while modules boot still closes cleanly.
  const started = closeOnSignals(async () => {
    await running.app?.close();
  });
  running.app = await createWorkerContext(await prepareRuntime('worker'));
  started();
  console.log('Life worker is running.');
}

export const onError = exitOnStartupError;
