import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin HTTP load balancer, as operations.md describes the one in front of the web
 * processes: keep-alive connections to each backend, a readiness check (`/api/health/ready`)
 * every 100 ms, and only ready backends get new requests: a backend is out after three failed
 * checks in a row (not 200, or no answer), in again after one good one, as HAProxy's `fall 3
 * rise 1`; a stopping process's 503 is seen within 300 ms, well inside its drain. Like nginx or
 * HAProxy by default, it
 * does not retry a request a backend failed (a reset or refused connection answers 502), so the
 * test sees every failure the processes cause.
 */
export interface Balancer {
  url: string;
  /** Backend origins (e.g. http://127.0.0.1:4001); changed by the test as processes come and go. */
  backends: string[];
  /** Requests that failed at a backend (answered 502 here), since start. */
  failures(): number;
  close(): Promise<void>;
}

const CHECK_EVERY_MS = 100;
const FALL = 3;

export async function startBalancer(port: number, backends: string[]): Promise<Balancer> {
  const agents = new Map<string, http.Agent>();
  const agent = (origin: string) => {
    let found = agents.get(origin);
    if (!found) {
      found = new http.Agent({ keepAlive: true, maxSockets: 64 });
      agents.set(origin, found);
    }
    return found;
  };
  const ready = new Set<string>();
  const failed = new Map<string, number>();
  let failures = 0;
  let next = 0;

  const check = async (origin: string) => {
    try {
      const response = await fetch(`${origin}/api/health/ready`, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) {
        failed.set(origin, 0);
        ready.add(origin);
        return;
      }
    } catch {
      // No answer: counted like a refusal.
    }
    const times = (failed.get(origin) ?? 0) + 1;
    failed.set(origin, times);
    if (times >= FALL) ready.delete(origin);
  };
  const timer = setInterval(() => {
    for (const origin of state.backends) void check(origin);
  }, CHECK_EVERY_MS);

  const server = http.createServer((request, response) => {
    const candidates = state.backends.filter((origin) => ready.has(origin));
    if (candidates.length === 0) {
      failures++;
      response.writeHead(503, { 'content-type': 'text/plain', 'x-balancer': 'no backend ready' }).end('no backend ready');
      return;
    }
    const origin = candidates[next++ % candidates.length]!;
    const target = new URL(request.url ?? '/', origin);
    const upstream = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: new URL(state.url).host }, agent: agent(origin) },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      failures++;
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain', 'x-balancer': 'backend failed' });
      response.end('bad gateway');
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const state: Balancer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    backends: [...backends],
    failures: () => failures,
    async close() {
      clearInterval(timer);
      for (const one of agents.values()) one.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}
