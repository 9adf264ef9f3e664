import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort } from '@life/test-support';
import { runLoad, type LoadResult } from './load.js';
import { firstMessage, memoryOf, sampleAnonPeak, startNodeChild, stopChild, waitForHttp200, waitForWorkers, type ManagedChild } from './processes.js';
import {
  BASELINE,
  scenarios,
  type AnyScenario,
  type BenchContext,
  type BenchOptions,
  type CustomResult,
  type HttpRequestSpec,
  type Target,
} from './scenarios.js';

/**
 * `npm run bench -- [name...] [--duration 10] [--connections 50] [--warmup 2] [--json file] [--list]`
 *
 * Creates a throw-away PostgreSQL database, starts the real app (`main.js --web-only`)
 * and a plain node:http reference server as child processes on loopback, runs each
 * scenario of scenarios.ts with autocannon, prints one table (stdout), then stops
 * everything and drops the database. See docs/benchmarks.md.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN_JS = path.resolve(here, '..', 'main.js');
const WORKER_JS = path.resolve(here, '..', 'worker.js');
const BASELINE_JS = path.resolve(here, 'baseline-server.js');
const OIDC_REFERENCE_JS = path.resolve(here, 'oidc-reference-server.js');
const DEFAULT_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const APP_START_TIMEOUT_MS = 60_000;
/**
 * The V8 heap flags production runs with (root package.json's start scripts, the Dockerfile),
 * so the bench measures what is deployed; BENCH_WEB_NODE_OPTIONS / BENCH_WORKER_NODE_OPTIONS
 * replace them (an empty value runs Node's defaults, to compare). See docs/operations.md.
 */
const WEB_NODE_OPTIONS = '--max-semi-space-size=8 --max-old-space-size=192';
const WORKER_NODE_OPTIONS = '--max-semi-space-size=4 --max-old-space-size=160';
const SCENARIO_SLACK_MS = 30_000;
const CLEANUP_TIMEOUT_MS = 30_000;

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

const USAGE = `Usage: npm run bench -- [scenario|group...] [options]

Runs the named scenarios, or every scenario of the named groups (default: all),
against the app and a plain node:http server, on 127.0.0.1 only, and prints a
table. "${BASELINE}" always runs first: every ratio is against it.

Options:
  --duration <s>      measured seconds per scenario (default 10)
  --connections <n>   concurrent connections (default 50)
  --warmup <s>        unmeasured seconds of load before each scenario (default 2)
  --json <file>       also write the results as JSON
  --list              list the scenarios and exit
  -h, --help          this help

Environment:
  BENCH_DATABASE_ADMIN_URL  server where the throw-away database is created
                            (default ${DEFAULT_ADMIN_URL})
  REDIS_URL                 Redis for the app (default redis://127.0.0.1:6379)
  BENCH_LOG_LEVEL           the app's LOG_LEVEL during the run (default warn)
  BENCH_WEB_NODE_OPTIONS    NODE_OPTIONS of the web process
                            (default "${WEB_NODE_OPTIONS}", as npm run start:web)
  BENCH_WORKER_NODE_OPTIONS NODE_OPTIONS of the worker process
                            (default "${WORKER_NODE_OPTIONS}", as npm run start:worker)`;

interface Row {
  name: string;
  target: Target | 'custom';
  /** The row this one is compared with (scenario.reference). */
  reference?: string;
  throughput?: number;
  unit: string;
  p50Ms?: number;
  p99Ms?: number;
  errors?: number;
  badStatus?: number;
  statuses?: Record<string, number>;
  total?: number;
  peakRssBytes?: number;
  failure?: string;
  notes?: string[];
}

function positiveNumber(name: string, raw: string | undefined, fallback: number, { integer = false, allowZero = false } = {}): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  const ok = Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) throw new UsageError(`--${name} must be a ${integer ? 'whole ' : ''}number${allowZero ? ' >= 0' : ' > 0'} (got "${raw}")`);
  return value;
}

class UsageError extends Error {}

function parseCli(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      json: { type: 'string' },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const options: BenchOptions = {
    duration: positiveNumber('duration', values.duration, 10),
    connections: positiveNumber('connections', values.connections, 50, { integer: true }),
    warmup: positiveNumber('warmup', values.warmup, 2, { allowZero: true }),
  };
  const groups = [...new Set(scenarios.flatMap((scenario) => (scenario.group ? [scenario.group] : [])))];
  const unknown = positionals.filter((name) => !scenarios.some((scenario) => scenario.name === name) && !groups.includes(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `Unknown scenario(s): ${unknown.join(', ')}. Known: ${scenarios.map((s) => s.name).join(', ')}; groups: ${groups.join(', ') || 'none'}`,
    );
  }
  // The baseline always runs, first: it is what every ratio is measured against.
  const wanted = new Set([BASELINE, ...positionals]);
  for (const scenario of scenarios) if (scenario.group && wanted.has(scenario.group)) wanted.add(scenario.name);
  const selected = positionals.length === 0 ? [...scenarios] : scenarios.filter((scenario) => wanted.has(scenario.name));
  selected.sort((a, b) => Number(b.name === BASELINE) - Number(a.name === BASELINE));
  return { options, selected, json: values.json, list: values.list, help: values.help };
}

/** Cleanup steps run once, in reverse order, whether the run succeeds, fails, times out or is interrupted. */
class Cleanup {
  private readonly steps: { label: string; fn: () => Promise<void> }[] = [];
  private running: Promise<void> | undefined;

  add(label: string, fn: () => Promise<void>): void {
    this.steps.push({ label, fn });
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.fn();
        } catch (error) {
          log(`cleanup "${step.label}" failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    return this.running;
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The URL of each HTTP target and the process that serves it (for its peak RSS). */
type Servers = Partial<Record<Target, { url: string; child: ManagedChild }>>;

/** The scenario's row, and the row of the reference it measured itself when it did (CustomResult.reference). */
async function runScenario(scenario: AnyScenario, ctx: BenchContext, servers: Servers): Promise<Row[]> {
  const target = scenario.run ? 'custom' : (scenario.target ?? 'app');
  const row: Row = { name: scenario.name, target, reference: scenario.reference, unit: scenario.run ? 'op/s' : 'req/s' };
  const { options } = ctx;
  const state: unknown = scenario.setup ? await scenario.setup(ctx) : undefined;
  let referenceRow: Row | undefined;
  try {
    if (scenario.run) {
      const result: CustomResult = await scenario.run(ctx, state);
      if (result.reference) {
        const { name, opsPerSec, unit, p50Ms, p99Ms, errors, total } = result.reference;
        referenceRow = { name, target: 'custom', unit: unit ?? 'op/s', throughput: opsPerSec, p50Ms, p99Ms, errors: errors ?? 0, total };
        row.reference = name;
      }
      Object.assign(row, {
        throughput: result.opsPerSec,
        unit: result.unit ?? 'op/s',
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        errors: result.errors ?? 0,
        total: result.total,
        notes: result.notes,
      });
    } else {
      const spec: HttpRequestSpec = typeof scenario.request === 'function' ? scenario.request(ctx, state) : scenario.request!;
      const server = servers[target as Target];
      if (!server) throw new Error(`no ${target} server was started`);
      const baseUrl = server.url;
      if (options.warmup > 0) await runLoad(baseUrl, spec, { connections: options.connections, durationSec: options.warmup });
      const result: LoadResult = await runLoad(baseUrl, spec, { connections: options.connections, durationSec: options.duration });
      Object.assign(row, {
        throughput: result.requestsPerSec,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        errors: result.errors,
        badStatus: result.badStatus,
        statuses: result.statuses,
        total: result.total,
      });
      if (result.total - result.badStatus <= 0) row.failure = `no successful response (statuses: ${JSON.stringify(result.statuses)})`;
    }
    if (scenario.notes) row.notes = [...(row.notes ?? []), ...(await scenario.notes(ctx, state))];
  } finally {
    if (scenario.teardown) await scenario.teardown(ctx, state);
  }
  row.peakRssBytes = memoryOf((servers[target === 'custom' ? 'app' : target] ?? servers.app)?.child.process.pid)?.peakRss;
  return referenceRow ? [row, referenceRow] : [row];
}

const fmt = {
  number: (value: number | undefined, digits = 0) =>
    value === undefined || !Number.isFinite(value) ? '-' : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  mb: (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`),
};

const measured = (row: Row | undefined): row is Row & { throughput: number } => !!row && !row.failure && row.throughput !== undefined && row.throughput > 0;

/** The row a row is compared with, when both were measured. */
function referenceOf(row: Row, rows: Row[]): (Row & { throughput: number }) | undefined {
  const reference = row.reference ? rows.find((other) => other.name === row.reference) : undefined;
  return measured(row) && measured(reference) ? reference : undefined;
}

/** "oauth-token vs oidc-token (oidc-provider): 0.31x the throughput, 3.40x the p99 latency". */
function referenceNotes(rows: Row[]): string[] {
  return rows.flatMap((row) => {
    const reference = referenceOf(row, rows);
    if (!reference) return [];
    // The p99s compare only when they measure the same thing (a custom row's may be a delay, its reference's a latency).
    const p99 =
      row.unit === reference.unit && row.p99Ms !== undefined && reference.p99Ms ? `, ${(row.p99Ms / reference.p99Ms).toFixed(2)}x the p99 latency` : '';
    return [`${row.name} vs ${reference.name} (${reference.target}): ${(row.throughput! / reference.throughput).toFixed(2)}x the throughput${p99}.`];
  });
}

/** A Markdown table, aligned for the terminal, so it can be pasted into docs/benchmarks.md as is. */
function renderTable(rows: Row[]): string {
  const baseline = rows.find((row) => row.name === BASELINE)?.throughput;
  // A "vs <reference>" column only when some row has a measured reference (e.g. oidc-provider).
  const referenceTargets = [
    ...new Set(
      rows.flatMap((row) => {
        const reference = referenceOf(row, rows);
        return reference ? [reference.target === 'custom' ? reference.name : reference.target] : [];
      }),
    ),
  ];
  const referenceTitle = referenceTargets.length === 1 ? `vs ${referenceTargets[0]}` : referenceTargets.length > 1 ? 'vs reference' : undefined;
  const header = [
    'scenario',
    'target',
    'throughput',
    'p50 ms',
    'p99 ms',
    'errors',
    'non-2xx',
    'vs baseline',
    ...(referenceTitle ? [referenceTitle] : []),
    'peak RSS',
  ];
  const right = [false, false, ...header.slice(2).map(() => true)];
  const body = rows.map((row) => {
    if (row.failure && row.throughput === undefined) return [row.name, row.target, `FAILED: ${row.failure}`, ...header.slice(3).map(() => '')];
    const ratio = row.unit === 'req/s' && baseline && row.throughput !== undefined ? `${(row.throughput / baseline).toFixed(2)}x` : '-';
    const reference = referenceOf(row, rows);
    return [
      row.failure ? `${row.name} (FAILED)` : row.name,
      row.target,
      `${fmt.number(row.throughput)} ${row.unit}`,
      fmt.number(row.p50Ms, 2),
      fmt.number(row.p99Ms, 2),
      fmt.number(row.errors),
      fmt.number(row.badStatus),
      ratio,
      ...(referenceTitle ? [reference ? `${(row.throughput! / reference.throughput).toFixed(2)}x` : '-'] : []),
      fmt.mb(row.peakRssBytes),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (right[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (right[column] ? `${'-'.repeat(width + 1)}:` : `${'-'.repeat(width + 2)}`)).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

function machineSummary() {
  const cpus = os.cpus();
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

async function main(): Promise<number> {
  let cli: ReturnType<typeof parseCli>;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (cli.help) {
    console.log(USAGE);
    return 0;
  }
  if (cli.list) {
    for (const scenario of scenarios) {
      console.log(`${scenario.name.padEnd(16)} ${scenario.group ? `[${scenario.group}] ` : ''}${scenario.description}`);
    }
    return 0;
  }
  const { options, selected } = cli;

  // Hard upper bound for the whole run: startup + every scenario + cleanup.
  const perScenarioMs = (options.warmup + options.duration) * 1000 + SCENARIO_SLACK_MS;
  const limitOf = (scenario: AnyScenario) => Math.max(perScenarioMs, scenario.timeoutMs ?? 0);
  const budgetMs = APP_START_TIMEOUT_MS + 15_000 + selected.reduce((sum, scenario) => sum + limitOf(scenario), 0) + CLEANUP_TIMEOUT_MS;
  const cleanup = new Cleanup();
  const abort = async (reason: string, code: number) => {
    log(`${reason}; cleaning up`);
    await withTimeout(cleanup.run(), CLEANUP_TIMEOUT_MS, 'cleanup').catch((error: Error) => log(error.message));
    process.exit(code);
  };
  const watchdog = setTimeout(() => void abort(`the run exceeded its ${Math.round(budgetMs / 1000)} s budget`, 1), budgetMs);
  process.once('SIGINT', () => void abort('interrupted', 130));
  process.once('SIGTERM', () => void abort('terminated', 143));

  const runId = randomBytes(4).toString('hex');
  const adminUrl = process.env.BENCH_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const database = `life_bench_${runId}`;
  const queuePrefix = `life_bench_${runId}`;
  const encryptionKeys = `k1:${randomBytes(32).toString('base64')}`;
  const rows: Row[] = [];
  let startupRss: number | undefined;
  let appPeakRss: number | undefined;
  let workerPeakRss: number | undefined;
  let workerStartupRss: number | undefined;
  let appAnonPeak: number | undefined;
  let workerAnonPeak: number | undefined;

  try {
    log(`${selected.map((s) => s.name).join(', ')}: ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s each`);

    const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
    await admin.connect().catch((error: Error) => {
      throw new Error(
        `Could not reach PostgreSQL at ${adminUrl.replace(/:[^:@/]*@/, ':***@')} (${error.message}).\n` +
          'Start it (e.g. pg_ctlcluster $(ls /etc/postgresql) main start) or set BENCH_DATABASE_ADMIN_URL.',
      );
    });
    cleanup.add('close admin connection', () => admin.end());
    await admin.query(`CREATE DATABASE "${database}"`);
    cleanup.add('drop database', async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      log(`dropped database ${database}`);
    });
    const databaseUrl = withDatabase(adminUrl, database);
    log(`created database ${database}`);

    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'life-bench-'));
    cleanup.add('remove data dir', async () => rmSync(dataDir, { recursive: true, force: true }));
    cleanup.add('delete Redis keys', async () => {
      await deleteRedisKeys(redisUrl, queuePrefix);
      // Queues of a scenario's own processes (BenchContext.queuePrefix), e.g. day-sync-10k's workers.
      await deleteRedisKeys(redisUrl, `${queuePrefix}-*`);
    });

    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const appEnv: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      // The stand-ins listen on loopback: production's private-address refusal (decision 0050) would refuse them.
      ALLOW_PRIVATE_SERVICE_URLS: 'true',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: appUrl,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: queuePrefix,
      ENCRYPTION_KEYS: encryptionKeys,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      DATA_DIR: dataDir,
      TRUST_PROXY: 'false',
      // No load balancer in front: stop without the production readiness drain (decision 0029).
      SHUTDOWN_DRAIN_MS: '0',
      // The authorization server's rate limits stay on (their Redis calls are part of every
      // request's cost) but so high that they never refuse the load generator.
      OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: '1000000',
      OAUTH_CLIENT_AUTH_FAILURES_PER_15MIN: '1000000',
      OAUTH_PROXY_RATE_LIMIT_PER_MINUTE: '1000000',
      // The shared worker does not sweep "Tu día" views: day-sync-10k measures exactly its own two
      // workers (their own queue prefix), and no other scenario has a view due.
      DAY_SYNC_SWEEP_MS: '3600000',
    };
    const webNodeOptions = process.env.BENCH_WEB_NODE_OPTIONS ?? WEB_NODE_OPTIONS;
    const workerNodeOptions = process.env.BENCH_WORKER_NODE_OPTIONS ?? WORKER_NODE_OPTIONS;
    log(`web NODE_OPTIONS="${webNodeOptions}", worker NODE_OPTIONS="${workerNodeOptions}"`);
    const app = startNodeChild('app', MAIN_JS, ['--web-only'], { ...appEnv, NODE_OPTIONS: webNodeOptions });
    cleanup.add('stop app', () => stopChild(app));
    const appStarted = Date.now();
    await waitForHttp200(`${appUrl}/api/health`, app, APP_START_TIMEOUT_MS);
    startupRss = memoryOf(app.process.pid)?.rss;
    log(`app ready at ${appUrl} in ${((Date.now() - appStarted) / 1000).toFixed(1)} s (pid ${app.process.pid}, RSS ${fmt.mb(startupRss)})`);

    // A separate worker process, as in production (web and workers apart): its queues, sweepers
    // and heartbeats run during every scenario, and its peak RSS is reported with the web's.
    const worker = startNodeChild('worker', WORKER_JS, [], { ...appEnv, NODE_OPTIONS: workerNodeOptions });
    cleanup.add('stop worker', () => stopChild(worker));
    const workerStarted = Date.now();
    // Ready once its first heartbeat is in Redis (written when it has bootstrapped), which
    // /api/health counts: its RSS then is the worker's real startup footprint.
    await waitForWorkers(appUrl, worker, 1, APP_START_TIMEOUT_MS);
    workerStartupRss = memoryOf(worker.process.pid)?.rss;
    log(`worker ready in ${((Date.now() - workerStarted) / 1000).toFixed(1)} s (pid ${worker.process.pid}, RSS ${fmt.mb(workerStartupRss)})`);
    const appAnon = sampleAnonPeak(app.process.pid);
    const workerAnon = sampleAnonPeak(worker.process.pid);

    const baseline = startNodeChild('baseline', BASELINE_JS, [], { ...process.env }, { ipc: true });
    cleanup.add('stop baseline', () => stopChild(baseline));
    const { port: baselinePort } = await firstMessage<{ port: number }>(baseline, 10_000);
    const baselineUrl = `http://127.0.0.1:${baselinePort}`;
    const servers: Servers = { app: { url: appUrl, child: app }, baseline: { url: baselineUrl, child: baseline } };

    // The reference implementation, only when a selected scenario measures it.
    let oidcProvider: BenchContext['oidcProvider'];
    if (selected.some((scenario) => scenario.target === 'oidc-provider')) {
      const reference = startNodeChild('oidc-provider', OIDC_REFERENCE_JS, [], { ...process.env, NODE_ENV: 'production' }, { ipc: true });
      cleanup.add('stop oidc-provider', () => stopChild(reference));
      const info = await firstMessage<{ port: number; clientId: string; clientSecret: string }>(reference, 15_000);
      oidcProvider = { url: `http://127.0.0.1:${info.port}`, clientId: info.clientId, clientSecret: info.clientSecret };
      servers['oidc-provider'] = { url: oidcProvider.url, child: reference };
      log(`oidc-provider reference at ${oidcProvider.url} (pid ${reference.process.pid})`);
    }

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    cleanup.add('close bench db connection', () => db.end());

    const ctx: BenchContext = {
      appUrl,
      baselineUrl,
      oidcProvider,
      db,
      databaseUrl,
      redisUrl,
      queuePrefix,
      encryptionKeys,
      appPid: app.process.pid!,
      options,
      log,
    };
    for (const scenario of selected) {
      if (app.exited()) throw new Error(`the app exited during the run\n${app.tail()}`);
      log(`running ${scenario.name}...`);
      try {
        rows.push(...(await withTimeout(runScenario(scenario, ctx, servers), limitOf(scenario), `scenario ${scenario.name}`)));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`${scenario.name} failed: ${message}`);
        rows.push({
          name: scenario.name,
          target: scenario.run ? 'custom' : (scenario.target ?? 'app'),
          reference: scenario.reference,
          unit: scenario.run ? 'op/s' : 'req/s',
          failure: message.split('\n')[0]!,
        });
      }
    }
    // A reference scenario may name the row it is the reference of (e.g. proxy-node for oauth-proxy).
    for (const scenario of selected as (AnyScenario & { referenceFor?: string })[]) {
      const compared = scenario.referenceFor ? rows.find((row) => row.name === scenario.referenceFor) : undefined;
      if (compared && !compared.reference) compared.reference = scenario.name;
    }
    appPeakRss = memoryOf(app.process.pid)?.peakRss;
    workerPeakRss = memoryOf(worker.process.pid)?.peakRss;
    appAnonPeak = appAnon.stop();
    workerAnonPeak = workerAnon.stop();
  } catch (error) {
    log(`aborted: ${error instanceof Error ? error.message : String(error)}`);
    await withTimeout(cleanup.run(), CLEANUP_TIMEOUT_MS, 'cleanup').catch((e: Error) => log(e.message));
    clearTimeout(watchdog);
    return 1;
  }

  await withTimeout(cleanup.run(), CLEANUP_TIMEOUT_MS, 'cleanup').catch((error: Error) => log(error.message));
  clearTimeout(watchdog);

  const machine = machineSummary();
  console.log('');
  console.log(renderTable(rows));
  console.log('');
  for (const row of rows) for (const note of row.notes ?? []) console.log(`${row.name}: ${note}`);
  for (const note of referenceNotes(rows)) console.log(note);
  console.log(
    `Web process peak RSS (VmHWM) over the run: ${fmt.mb(appPeakRss)}; RSS after startup: ${fmt.mb(startupRss)}; peak anonymous (private) RSS: ${fmt.mb(appAnonPeak)}.`,
  );
  console.log(
    `Worker process peak RSS (VmHWM) over the run: ${fmt.mb(workerPeakRss)}; RSS after startup: ${fmt.mb(workerStartupRss)}; peak anonymous (private) RSS: ${fmt.mb(workerAnonPeak)}.`,
  );
  console.log(
    `${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s measured per scenario; ` +
      `${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB RAM, Node ${machine.node}, ${machine.platform}. ` +
      'Load generator and servers share these CPUs: compare ratios, not absolute numbers.',
  );
  if (cli.json) {
    writeFileSync(
      cli.json,
      `${JSON.stringify({ date: new Date().toISOString(), machine, options, appPeakRssBytes: appPeakRss, appStartupRssBytes: startupRss, appAnonPeakBytes: appAnonPeak, workerPeakRssBytes: workerPeakRss, workerStartupRssBytes: workerStartupRss, workerAnonPeakBytes: workerAnonPeak, rows }, null, 2)}\n`,
    );
    log(`wrote ${cli.json}`);
  }
  return rows.some((row) => row.failure) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('[bench] unexpected failure:', error);
    process.exit(1);
  },
);
