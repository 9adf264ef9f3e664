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
  const runtime = await prepareRuntime('worker');
  running.app = await createWorkerContext(runtime);
  started();
  console.log(`Life worker is running (queue prefix ${runtime.config.queuePrefix}).`);
}

export const onError = exitOnStartupError;
