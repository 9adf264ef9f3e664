import type { Server } from 'node:http';

/**
 * Whether this process has been told to stop (SIGTERM/SIGINT). From then on its readiness
 * (`/api/health/ready`, `/api/health`) answers 503 so the load balancer sends it nothing new,
 * while it still serves what arrives, each answer with `Connection: close` so the balancer's
 * pooled connections to it end cleanly (decision 0029).
 */
export class Stopping {
  private since: number | undefined;

  get requested(): boolean {
    return this.since !== undefined;
  }

  /** Milliseconds since the stop was asked for (0 before). */
  get elapsedMs(): number {
    return this.since === undefined ? 0 : Math.round(performance.now() - this.since);
  }

  begin(): void {
    this.since ??= performance.now();
  }
}

/**
 * While the HTTP server closes: closes every connection as soon as it is idle, instead of when
 * its keep-alive timeout ends (72 s by default). `server.close()` closes the connections idle at
 * that moment; one whose request was still running becomes idle later, and without this would
 * hold the exit. Answers sent since the stop began carry `Connection: close`, so a client never
 * sends a new request on a connection closed here. Returns the function that stops the sweep.
 */
export function closeIdleConnectionsUntilClosed(server: Server, everyMs = 50): () => void {
  server.closeIdleConnections();
  const timer = setInterval(() => server.closeIdleConnections(), everyMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  server.once('close', stop);
  return stop;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
