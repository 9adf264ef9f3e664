import type { Redis } from 'ioredis';

/** How long a registration lives without its owner's heartbeat (a process that died lets another take over). */
const REGISTRATION_TTL_MS = 30_000;
const HEARTBEAT_MS = 10_000;
/** A registered server that does not answer within this is treated as gone. */
const REACH_TIMEOUT_MS = 1_500;

const REPLACE_IF = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) else return false end";
const EXTEND_IF = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const DELETE_IF = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export interface StartedDevServer<T> {
  /** What the other processes need to use it (URLs, a client secret): stored in Redis as JSON. */
  value: T;
  close(): Promise<void>;
}

/**
 * One development server (the identity provider, the services' stand-ins) for a whole
 * installation of several processes: the first process that needs it starts it and registers
 * `value` in Redis under `key` (the installation's QUEUE_PREFIX) with a heartbeat; every other
 * process uses the registered one while it answers at `probe(value)`. A flow that starts on one
 * process and comes back to another (two web processes behind a balancer) then talks to one
 * server. If the owner dies, its registration expires (30 s) or, if it no longer answers, the
 * next process that needs a server starts its own and takes the registration over.
 * Development only: these servers listen on loopback, so the processes share a machine.
 */
export class SharedDevServer<T> {
  private own: Promise<StartedDevServer<T>> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly start: () => Promise<StartedDevServer<T>>,
    private readonly probe: (value: T) => string,
  ) {}

  /** The installation's server: the registered one if it answers, else this process's own (started and registered now). */
  async get(): Promise<T> {
    const registered = await this.registered();
    if (registered) {
      const ours = this.own ? (await this.own.catch(() => undefined))?.value : undefined;
      if (JSON.stringify(ours) === registered.raw || (await answers(this.probe(registered.value)))) return registered.value;
    }
    return this.startOwn(registered?.raw);
  }

  private async registered(): Promise<{ raw: string; value: T } | undefined> {
    const raw = await this.redis.get(this.key).catch(() => null);
    if (!raw) return undefined;
    try {
      return { raw, value: JSON.parse(raw) as T };
    } catch {
      return undefined;
    }
  }

  private async startOwn(stale: string | undefined): Promise<T> {
    this.own ??= this.start().catch((error: unknown) => {
      // Tried again on the next call (e.g. after `npm install` brought the stand-ins).
      this.own = undefined;
      throw error;
    });
    const { value } = await this.own;
    const raw = JSON.stringify(value);
    // Take the registration if it is free, or if it still names the server that did not answer.
    const taken =
      (await this.redis.set(this.key, raw, 'PX', REGISTRATION_TTL_MS, 'NX').catch(() => null)) === 'OK' ||
      (stale !== undefined && (await this.redis.eval(REPLACE_IF, 1, this.key, stale, raw, String(REGISTRATION_TTL_MS)).catch(() => null)) === 'OK');
    if (taken) {
      this.keepRegistered(raw);
      return value;
    }
    // Another process registered one meanwhile: use it, so the installation has one.
    return (await this.registered())?.value ?? value;
  }

  private keepRegistered(raw: string): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      void this.redis.eval(EXTEND_IF, 1, this.key, raw, String(REGISTRATION_TTL_MS)).catch(() => undefined);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Hands the registration back (the next process need not wait for it to expire) and stops this process's server. */
  async close(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (!this.own) return;
    const own = await this.own.catch(() => undefined);
    if (!own) return;
    await this.redis.eval(DELETE_IF, 1, this.key, JSON.stringify(own.value)).catch(() => undefined);
    await own.close();
  }
}

/** Any HTTP answer counts: the server is there. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(REACH_TIMEOUT_MS) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
