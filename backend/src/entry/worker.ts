import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { closeOnSignals, createWorkerContext, exitOnStartupError, prepareRuntime } from '../bootstrap.js';
import { loadConfig } from '../config/config.js';

/** Queue consumers only, no HTTP. Scale these separately from the web processes. */
export async function main(): Promise<void> {
  const config = loadConfig();
  const running: { app?: INestApplicationContext } = {};
  // Installed before start-up: a SIGTERM that arrives while modules boot still closes cleanly.
  // No drain (nothing routes requests here): running jobs finish, within SHUTDOWN_GRACE_MS.
  const started = closeOnSignals({
    graceMs: config.shutdown.graceMs,
    close: async () => {
      await running.app?.close();
    },
  });
  const runtime = await prepareRuntime('worker', process.env, config);
  running.app = await createWorkerContext(runtime);
  started();
  console.log(`Life worker is running (queue prefix ${runtime.config.queuePrefix}).`);
}

export const onError = exitOnStartupError;
