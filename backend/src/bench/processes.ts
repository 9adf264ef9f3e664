import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pollUntil } from '@life/test-support';

export interface ManagedChild {
  name: string;
  process: ChildProcess;
  /** The last lines it printed (for a failure report). */
  tail: () => string;
  exited: () => boolean;
}

const MAX_FORWARDED_LINES = 200;
const TAIL_LINES = 40;

/**
 * Starts a Node script as a child process with the same Node binary (the pinned
 * Node 24 when run through npm). Its output is kept for error reports and
 * forwarded, prefixed, to our stderr (capped, so a flood of warnings under load
 * cannot drown the table).
 */
export function startNodeChild(name: string, script: string, args: string[], env: NodeJS.ProcessEnv, options: { ipc?: boolean } = {}): ManagedChild {
  const child = spawn(process.execPath, [script, ...args], {
    env,
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let forwarded = 0;
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      if (forwarded < MAX_FORWARDED_LINES) {
        process.stderr.write(`[${name}] ${line}\n`);
        forwarded += 1;
        if (forwarded === MAX_FORWARDED_LINES) process.stderr.write(`[${name}] (further output not shown)\n`);
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return {
    name,
    process: child,
    tail: () => lines.join('\n'),
    exited: () => child.exitCode !== null || child.signalCode !== null,
  };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone (bounded). */
export async function stopChild(child: ManagedChild, graceMs = 10_000): Promise<void> {
  if (child.exited()) return;
  const exited = once(child.process, 'exit').then(() => true);
  child.process.kill('SIGTERM');
  const done = await Promise.race([exited, sleep(graceMs).then(() => false)]);
  if (done || child.exited()) return;
  process.stderr.write(`[bench] ${child.name} did not stop within ${graceMs} ms, killing it\n`);
  child.process.kill('SIGKILL');
  await Promise.race([exited, sleep(5_000)]);
}

/** Waits for a child's first IPC message (e.g. the baseline's `{ port }`). */
export async function firstMessage<T>(child: ManagedChild, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${child.name} did not report within ${timeoutMs} ms\n${child.tail()}`)), timeoutMs);
    const onMessage = (message: unknown) => finish(undefined, message as T);
    const onExit = (code: number | null) => finish(new Error(`${child.name} exited (code ${code}) before it was ready\n${child.tail()}`));
    function finish(error?: Error, value?: T) {
      clearTimeout(timer);
      child.process.off('message', onMessage);
      child.process.off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.process.on('message', onMessage);
    child.process.on('exit', onExit);
  });
}

/** Polls `url` until it answers 200, the child dies, or the time is up. */
export async function waitForHttp200(url: string, child: ManagedChild, timeoutMs: number): Promise<void> {
  let last = 'no answer yet';
  await pollUntil(
    async () => {
      try {
        const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(2_000) });
        const text = await response.text();
        if (response.status === 200) return true;
        last = `HTTP ${response.status}: ${text.slice(0, 300)}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      return false;
    },
    `${url} to answer 200`,
    {
      timeoutMs,
      intervalMs: 250,
      failIf: () =>
        child.exited() && `${child.name} exited (code ${child.process.exitCode ?? child.process.signalCode}) before ${url} answered\n${child.tail()}`,
      detail: () => `last: ${last}\n${child.tail()}`,
    },
  );
}

/** Polls the app's /api/health until it counts at least `count` workers (their heartbeats), or `worker` dies. */
export async function waitForWorkers(appUrl: string, worker: ManagedChild, count: number, timeoutMs: number): Promise<void> {
  let last = 'no answer yet';
  await pollUntil(
    async () => {
      try {
        const response = await fetch(`${appUrl}/api/health`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(2_000) });
        const body = (await response.json()) as { info?: { workers?: { count?: number } } };
        const seen = body.info?.workers?.count ?? 0;
        last = `${seen} worker(s) counted`;
        return seen >= count;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
        return false;
      }
    },
    `${count} worker(s) to report a heartbeat`,
    {
      timeoutMs,
      intervalMs: 250,
      failIf: () =>
        worker.exited() && `${worker.name} exited (code ${worker.process.exitCode ?? worker.process.signalCode}) before it was ready\n${worker.tail()}`,
      detail: () => `last: ${last}\n${worker.tail()}`,
    },
  );
}

export interface MemoryStats {
  /** Peak resident set size (VmHWM), bytes. */
  peakRss: number;
  /** Current resident set size (VmRSS), bytes. */
  rss: number;
  /** Current anonymous (private: heap, stacks, malloc) part of the RSS, bytes. */
  rssAnon: number;
}

/** Reads /proc/<pid>/status (Linux only; undefined elsewhere or once the process is gone). */
export function memoryOf(pid: number | undefined): MemoryStats | undefined {
  if (!pid || process.platform !== 'linux') return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    const stats = { peakRss: kb('VmHWM'), rss: kb('VmRSS'), rssAnon: kb('RssAnon') };
    return Number.isFinite(stats.peakRss) ? stats : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Samples a process's anonymous RSS every `intervalMs` and keeps its peak. VmHWM also counts
 * file-backed pages (the node binary's code and ICU data, about 50 MB once an app has loaded),
 * which every Node process on the machine shares and the kernel can drop and read again; the
 * anonymous part is what the process itself costs.
 */
export function sampleAnonPeak(pid: number | undefined, intervalMs = 200): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const anon = memoryOf(pid)?.rssAnon;
    if (anon !== undefined && Number.isFinite(anon)) peak = Math.max(peak ?? 0, anon);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop() {
      sample();
      clearInterval(timer);
      return peak;
    },
  };
}
