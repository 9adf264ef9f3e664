import autocannon from 'autocannon';
import type { HttpRequestSpec } from './scenarios.js';

export interface LoadResult {
  /** Mean of the per-second request counts (completed responses, any status). */
  requestsPerSec: number;
  total: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Responses whose status was not expected (default: not 2xx). */
  badStatus: number;
  /** Responses per status code, e.g. { "200": 1234, "503": 2 }. */
  statuses: Record<string, number>;
  durationSec: number;
}

/** Keeps every sample (a few MB for a 10 s run) and sorts once: exact percentiles, sub-millisecond. */
class LatencyRecorder {
  private samples = new Float64Array(1 << 16);
  private count = 0;
  private sorted = false;

  add(ms: number): void {
    this.sorted = false;
    if (this.count === this.samples.length) {
      const bigger = new Float64Array(this.samples.length * 2);
      bigger.set(this.samples);
      this.samples = bigger;
    }
    this.samples[this.count++] = ms;
  }

  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const samples = this.samples.subarray(0, this.count);
    if (!this.sorted) samples.sort();
    this.sorted = true;
    return samples[Math.min(this.count - 1, Math.max(0, Math.ceil((p / 100) * this.count) - 1))]!;
  }
}

function assertLoopback(url: string): void {
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1') throw new Error(`The bench only targets 127.0.0.1, not ${hostname}`);
}

/** Runs autocannon once against `baseUrl + spec.path` (no progress bar, no tables). */
export async function runLoad(baseUrl: string, spec: HttpRequestSpec, load: { connections: number; durationSec: number }): Promise<LoadResult> {
  if (!spec.path.startsWith('/')) throw new Error(`Request path must start with "/": ${spec.path}`);
  const url = `${baseUrl}${spec.path}`;
  assertLoopback(url);
  const headers: Record<string, string> = { ...spec.headers };
  let body: string | undefined;
  if (typeof spec.body === 'string') body = spec.body;
  else if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  const expected = spec.expectStatus;
  const succeeded = (status: number) => (expected ? expected.includes(status) : status >= 200 && status < 300);
  // autocannon's own histogram keeps whole milliseconds; the response event has the
  // exact time, so percentiles are computed here (successful responses only, as autocannon does).
  const latencies = new LatencyRecorder();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        ...spec.autocannon,
        url,
        method: spec.method ?? 'GET',
        headers,
        body,
        connections: load.connections,
        duration: load.durationSec,
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done)),
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
      if (succeeded(statusCode)) latencies.add(responseTimeMs);
    });
  });
  // autocannon resolves the host once; a scenario's `requests` override cannot leave loopback either.
  assertLoopback(result.url);

  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat?.count ?? 0;
  const badStatus = expected ? Object.entries(statuses).reduce((sum, [code, count]) => sum + (expected.includes(Number(code)) ? 0 : count), 0) : result.non2xx;
  return {
    requestsPerSec: result.requests.average,
    total: result.requests.total,
    p50Ms: latencies.percentile(50),
    p99Ms: latencies.percentile(99),
    errors: result.errors,
    badStatus,
    statuses,
    durationSec: result.duration,
  };
}
