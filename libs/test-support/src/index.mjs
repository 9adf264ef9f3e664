// Helpers every test process needs (backend tests, the e2e runner, the bench): plain
// node, no framework, so the bench can load them from backend/dist at run time.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A TCP port nobody listens on right now on 127.0.0.1 (for servers whose URL must be
 * known before they start).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `probe` until it gives a truthy value, and returns that value: never a fixed
 * sleep. A probe that throws counts as "not yet" (a server still starting, a row not
 * written yet); `failIf` is how to stop at once (a child process that died).
 * @template T
 * @param {() => T | PromiseLike<T>} probe
 * @param {string} what  what is awaited, for the timeout's message
 * @param {import('./index.d.mts').PollOptions} [options]
 * @returns {Promise<Exclude<T, false | null | undefined | 0 | ''>>}
 */
export async function pollUntil(probe, what, options = {}) {
  const { timeoutMs = 20_000, intervalMs = 100, failIf, detail } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const failure = failIf?.();
    if (failure) throw new Error(failure);
    const value = await Promise.resolve()
      .then(probe)
      .catch(() => undefined);
    if (value) return value;
    if (Date.now() >= deadline) break;
    await sleep(intervalMs);
  }
  const more = detail?.();
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${more ? `\n${more}` : ''}`);
}
