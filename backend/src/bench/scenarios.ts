import type autocannon from 'autocannon';
import type pg from 'pg';
import { refreshScenario, servicesAllScenario } from './connections.scenarios.js';
import { landingScenario } from './landing.scenarios.js';
import { OAUTH_GROUP, oauthScenarios } from './oauth.scenarios.js';
import { proxyReferenceScenario } from './proxy-reference.scenarios.js';
import { daySyncScenario, dayViewsScenario, YOUR_DAY_GROUP } from './your-day.scenarios.js';

/**
 * The benchmark registry. `npm run bench` runs every scenario below (or the ones
 * named on the command line) against the real app, started in a child process on
 * a fresh PostgreSQL database, and compares each one with a plain `node:http`
 * server measured in the same run.
 *
 * To add a benchmark for a new endpoint, append an entry with `defineScenario`:
 *
 *   defineScenario({
 *     name: 'me',
 *     description: 'GET /api/me with a valid session (auth guard + one query)',
 *     async setup(ctx) {
 *       // seed through ctx.db (tables exist: migrations ran when the app started)
 *       return { token: '...' };
 *     },
 *     request: (ctx, state) => ({ path: '/api/me', headers: { authorization: `Bearer ${state.token}` } }),
 *   })
 *
 * A benchmark that is not one HTTP request (e.g. queue refresh throughput) gives
 * `run(ctx, state)` instead of `request` and returns its own numbers.
 *
 * Scenarios of one feature share a `group` (`npm run bench -- oauth` runs the group), and a
 * scenario measured against another implementation names that row as its `reference`: the
 * table then shows the ratio to it too.
 */

export interface BenchOptions {
  /** Measured seconds per scenario. */
  duration: number;
  /** Concurrent HTTP connections of the load generator. */
  connections: number;
  /** Seconds of load before each measured run (not counted). */
  warmup: number;
}

export interface BenchContext {
  /** Base URL of the app under test, e.g. http://127.0.0.1:41234 (always loopback). */
  appUrl: string;
  /** Base URL of the plain node:http reference server. */
  baselineUrl: string;
  /** The oidc-provider reference server and its one client, when a selected scenario targets it. */
  oidcProvider?: { url: string; clientId: string; clientSecret: string };
  /** A connected client to the bench database (the app's migrations have been applied). */
  db: pg.Client;
  /** Connection string of the bench database (what the app uses). */
  databaseUrl: string;
  /**
   * Redis the app uses, and the queue prefix unique to this run. A scenario that starts processes
   * with queues of their own gives them `<queuePrefix>-<name>`: run.ts deletes those keys too.
   */
  redisUrl: string;
  queuePrefix: string;
  /** The ENCRYPTION_KEYS the app was started with (to seed encrypted values). */
  encryptionKeys: string;
  /** PID of the app process (e.g. to sample its memory). */
  appPid: number;
  options: BenchOptions;
  /** Prints a progress line to stderr (the table goes to stdout). */
  log: (message: string) => void;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface HttpRequestSpec {
  method?: HttpMethod;
  /** Path and query, starting with `/`. */
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as is; an object is sent as JSON (content-type set for you). */
  body?: string | Record<string, unknown> | unknown[];
  /**
   * Statuses that count as success (default: any 2xx). Anything else is counted
   * in the "errors" column, so a scenario that silently returns 401 is visible.
   */
  expectStatus?: number[];
  /** Extra autocannon options (pipelining, requests sequence, ...), for special cases. */
  autocannon?: Partial<autocannon.Options>;
}

/** Numbers a custom `run` reports; they land in the same table. */
export interface CustomResult {
  /** Operations per second. */
  opsPerSec: number;
  /** What one operation is (shown next to the number), e.g. "refresh/s". Default "op/s". */
  unit?: string;
  p50Ms?: number;
  p99Ms?: number;
  errors?: number;
  /** Total operations done in the measured window. */
  total?: number;
  /** Extra facts printed under the table (e.g. "duplicate refreshes: 0"). */
  notes?: string[];
  /**
   * A reference the run measured itself, in the same run (e.g. the same provider calls made by a
   * plain loop): printed as its own row right after this one, and this row's "vs" column is this
   * row's throughput ÷ the reference's (the p99 ratio only when both have the same unit).
   */
  reference?: { name: string; opsPerSec: number; unit?: string; p50Ms?: number; p99Ms?: number; errors?: number; total?: number };
}

/**
 * Which server a scenario's HTTP load goes to: the app, the plain node:http baseline, or a
 * reference implementation started by run.ts only when a selected scenario needs it.
 */
export type Target = 'app' | 'baseline' | 'oidc-provider';

export interface Scenario<State = void> {
  /** Short, unique, used on the command line: `npm run bench -- site health`. */
  name: string;
  /** One line for `--list` and docs/benchmarks.md: what is measured. */
  description: string;
  /** A name shared by related scenarios; `npm run bench -- <group>` runs all of them. */
  group?: string;
  /** Which server the HTTP load goes to. Default: the app. */
  target?: Target;
  /**
   * The name of another scenario (normally the same workload on a reference implementation)
   * this row is compared with: the table gets a "vs <its target>" column, and a note gives
   * both the throughput and the p99 ratio. Both must be selected for the ratio to appear.
   */
  reference?: string;
  /** Seeding before the run (warm-up and measured run reuse it). */
  setup?: (ctx: BenchContext) => Promise<State>;
  /** The HTTP request the load generator repeats. */
  request?: HttpRequestSpec | ((ctx: BenchContext, state: State) => HttpRequestSpec);
  /** A non-HTTP benchmark (instead of `request`): must finish within about options.duration. */
  run?: (ctx: BenchContext, state: State) => Promise<CustomResult>;
  /**
   * After the measured run, before teardown: facts printed under the table (e.g. how many
   * seeded tokens were used). Throwing marks the row as failed (a check that did not hold).
   */
  notes?: (ctx: BenchContext, state: State) => Promise<string[]>;
  /** Cleanup after the run (the database is dropped anyway at the end). */
  teardown?: (ctx: BenchContext, state: State) => Promise<void>;
  /**
   * Time limit of setup + run + teardown when it needs more than the default
   * (warm-up + duration + 30 s), e.g. a custom run that seeds and starts processes.
   */
  timeoutMs?: number;
}

// The registry holds scenarios of different state types; the state only flows
// from a scenario's own setup to its own request/run/teardown.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyScenario = Scenario<any>;

export function defineScenario<State = void>(scenario: Scenario<State>): AnyScenario {
  if (!scenario.request === !scenario.run) {
    throw new Error(`Bench scenario "${scenario.name}" needs exactly one of "request" or "run"`);
  }
  return scenario as AnyScenario;
}

/** The reference every other row's ratio is computed against; always runs first. */
export const BASELINE = 'baseline';

export const scenarios: AnyScenario[] = [
  defineScenario({
    name: BASELINE,
    description: 'Plain node:http server answering a small fixed JSON body (the ceiling on this machine)',
    target: 'baseline',
    request: { path: '/' },
  }),
  defineScenario({
    name: 'site',
    description: 'GET /api/site: the whole Nest + Fastify stack (pipeline, helmet, request id, request logging), no I/O',
    request: { path: '/api/site', headers: { accept: 'application/json' } },
  }),
  defineScenario({
    name: 'health',
    description: 'GET /api/health: stack + one PostgreSQL query + one Redis PING per request',
    request: { path: '/api/health', headers: { accept: 'application/json' } },
  }),
  defineScenario(servicesAllScenario),
  defineScenario(refreshScenario),
  defineScenario({ ...dayViewsScenario, group: YOUR_DAY_GROUP }),
  defineScenario({ ...daySyncScenario, group: YOUR_DAY_GROUP }),
  ...oauthScenarios.map((scenario) => defineScenario({ ...scenario, group: OAUTH_GROUP })),
  defineScenario({ ...proxyReferenceScenario, group: OAUTH_GROUP }),
  defineScenario(landingScenario),
];
