import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { freePort, pollUntil } from '@life/test-support';
import { SmtpStandIn } from './helpers/smtp-standin.js';
import { startTestApp, TEST_REDIS_URL, type TestApp } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/**
 * Stopping the real processes (issue 21, points 3 and 4; decision 0029): `node dist/main.js` and
 * `node dist/worker.js` under load, SIGTERM, and what a load balancer and an orchestrator see.
 * The deadlines are the processes' own settings (SHUTDOWN_DRAIN_MS, SHUTDOWN_GRACE_MS); the
 * test checks that each stop stays inside them, not how fast anything is.
 */

const backendDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mainJs = path.join(backendDir, 'dist', 'main.js');
const workerJs = path.join(backendDir, 'dist', 'worker.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

function start(script: string, env: Record<string, string>, args: string[] = []): Started {
  let output = '';
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: performance.now() })));
  return { child, output: () => output, exited };
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** One GET over `agent` (keep-alive, like a load balancer's pool), or a fresh connection. */
function get(port: number, pathname: string, agent: http.Agent | false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathname, agent, headers: { accept: 'application/json' } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }));
      response.on('error', reject);
    });
    request.setTimeout(10_000, () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
  });
}

/** Whether the process still accepts new connections. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface SlowRequest {
  /** Sends the rest of the body: the request can be answered. */
  finish(): void;
  answer: Promise<Answer>;
  /** When its connection closed (it is kept alive after the answer unless the server closes it). */
  closed: Promise<number>;
  /** Its headers and the first part of its body are written. */
  sent: Promise<void>;
}

/**
 * A contact message whose body comes in two parts (a bot's, so nothing is stored): in flight from
 * its first part on, answered once `finish()` sends the rest. Over a keep-alive connection.
 */
function slowRequest(port: number): SlowRequest {
  const body = JSON.stringify({
    name: 'Ana',
    email: 'ana@example.com',
    subject: 'general',
    message: 'Un mensaje que llega despacio.',
    consent: true,
    website: 'bot',
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let resolveClosed: (at: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (resolveClosed = resolve));
  let request: http.ClientRequest | undefined;
  let resolveSent: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (resolveSent = resolve));
  const answer = new Promise<Answer>((resolve, reject) => {
    request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/contact',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body: text }));
      },
    );
    request.on('socket', (socket) => socket.once('close', () => resolveClosed(performance.now())));
    request.on('error', reject);
    request.write(body.slice(0, 20), () => resolveSent());
  });
  return { finish: () => request?.end(body.slice(20)), answer, closed, sent };
}

describe('stopping a web process behind a load balancer (SIGTERM under load)', () => {
  const DRAIN_MS = 3000;
  const GRACE_MS = 12_000;
  let db: TestDatabase;
  let web: Started | undefined;
  const prefix = `lifestop${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    web?.child.kill('SIGKILL');
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await db.drop();
  });

  it('reports unready while still live and serving, fails no request, finishes the one in flight, and exits within its grace period despite an idle keep-alive connection', async () => {
    const port = await freePort();
    web = start(
      mainJs,
      {
        PORT: String(port),
        DATABASE_URL: db.url,
        QUEUE_PREFIX: prefix,
        ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        CONTACT_RATE_LIMIT_PER_HOUR: '10000',
      },
      ['--web-only'],
    );
    const process_ = web;
    await pollUntil(async () => (await get(port, '/api/health/ready', false)).status === 200, 'the web process to be ready', {
      timeoutMs: 45_000,
      intervalMs: 200,
      failIf: () => (process_.child.exitCode === null ? undefined : `the web process exited:\n${process_.output()}`),
      detail: () => `Output:\n${process_.output()}`,
    });

    // The balancer: keep-alive connections, requests back to back, taken out of rotation at the
    // first 503 from the readiness probe (HAProxy `fall 1`), probed every 100 ms.
    const pool = new http.Agent({ keepAlive: true, maxSockets: 6 });
    let routing = true;
    let signalledAt = Number.POSITIVE_INFINITY;
    const answers: { sentAt: number; status: number | string; connection?: string }[] = [];
    const loops = Array.from({ length: 6 }, async () => {
      while (routing) {
        const sentAt = performance.now();
        try {
          const answer = await get(port, '/api/site', pool);
          answers.push({ sentAt, status: answer.status, connection: answer.connection });
        } catch (error) {
          answers.push({ sentAt, status: (error as NodeJS.ErrnoException).code ?? String(error) });
        }
      }
    });
    const probes: { at: number; ready: number; live: number; stopping?: boolean }[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const at = performance.now();
        try {
          const [ready, live] = await Promise.all([get(port, '/api/health/ready', false), get(port, '/api/health/live', false)]);
          probes.push({ at, ready: ready.status, live: live.status, stopping: (JSON.parse(live.body) as { stopping: boolean }).stopping });
          if (ready.status === 503) routing = false;
        } catch {
          // Not listening any more: the process closes.
          probing = false;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    // An idle keep-alive connection, as a balancer keeps in its pool: used once, then left open.
    const idle = net.connect(port, '127.0.0.1');
    let idleClosedAt: number | undefined;
    idle.on('close', () => (idleClosedAt = performance.now()));
    idle.on('error', () => undefined);
    let idleAnswer = '';
    idle.on('data', (chunk: Buffer) => (idleAnswer += chunk.toString()));
    idle.write(`GET /api/site HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\nConnection: keep-alive\r\n\r\n`);
    await pollUntil(async () => idleAnswer.includes('\r\n\r\n{'), 'the idle connection’s first answer');
    expect(idleAnswer).toMatch(/^HTTP\/1\.1 200/);
    expect(idleAnswer.toLowerCase()).toContain('connection: keep-alive');

    // A request in flight from before the signal until after the server closed: answered with
    // keep-alive, its connection then idle (what held a stopped process for 72 s). The load's
    // answers to requests sent after its first part are written show the server has read that part.
    const beforeSignal = slowRequest(port);
    await beforeSignal.sent;
    const seen = answers.length;
    await pollUntil(async () => answers.length >= seen + 200, 'the load to be under way', { timeoutMs: 30_000 });
    signalledAt = performance.now();
    web.child.kill('SIGTERM');

    // During the drain: another such request, on a new connection. Both get their body's end once
    // the server has stopped accepting connections: they are in flight when it closes.
    await pollUntil(async () => !routing, 'the balancer to see readiness turn 503', { timeoutMs: DRAIN_MS });
    const duringDrain = slowRequest(port);
    await pollUntil(async () => !(await accepts(port)), 'the server to stop accepting connections', { timeoutMs: GRACE_MS, intervalMs: 50 });
    beforeSignal.finish();
    duringDrain.finish();

    const exit = await web.exited;
    const [answeredBefore, answeredDuring] = await Promise.all([beforeSignal.answer, duringDrain.answer]);
    const [beforeClosedAt, duringClosedAt] = await Promise.all([beforeSignal.closed, duringDrain.closed]);
    await Promise.all([...loops, prober]);
    pool.destroy();
    const output = web.output();

    // Readiness 503 while liveness stays 200, for the drain.
    const probesAfter = probes.filter((probe) => probe.at > signalledAt);
    expect(probesAfter.some((probe) => probe.ready === 503 && probe.live === 200 && probe.stopping === true)).toBe(true);
    // Once unready, it stays so.
    const firstUnready = probesAfter.findIndex((probe) => probe.ready === 503);
    expect(probesAfter.slice(firstUnready).every((probe) => probe.ready === 503 && probe.live === 200)).toBe(true);
    expect(probes.filter((probe) => probe.at < signalledAt).every((probe) => probe.ready === 200 && probe.live === 200 && probe.stopping === false)).toBe(true);

    // No request failed: neither those answered before the signal nor those sent after it, until the balancer stopped routing.
    const afterSignal = answers.filter((answer) => answer.sentAt > signalledAt);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(afterSignal.length).toBeGreaterThan(0);
    // Those the process answered once it had the signal came with Connection: close (the balancer's
    // pool drops each such connection; the first ones may have been answered before the signal arrived).
    expect(afterSignal.some((answer) => answer.connection === 'close')).toBe(true);
    expect(answers.filter((answer) => answer.sentAt < signalledAt).every((answer) => answer.connection !== 'close')).toBe(true);

    // The requests in flight when the server closed were served; the one begun before the signal
    // kept its connection alive, the server closed it once idle; the other was told to close it.
    expect(answeredBefore).toMatchObject({ status: 202, connection: 'keep-alive' });
    expect(answeredDuring).toMatchObject({ status: 202, connection: 'close' });
    expect(beforeClosedAt).toBeLessThanOrEqual(exit.at);
    expect(duringClosedAt).toBeLessThanOrEqual(exit.at);

    // The idle keep-alive connection was closed by the server, and did not hold the exit.
    expect(idleClosedAt).toBeDefined();
    expect(idleClosedAt!).toBeLessThanOrEqual(exit.at);
    expect(exit.code).toBe(0);
    expect(output).toContain('Received SIGTERM');
    expect(output).toMatch(/Stopped: everything closed in \d+ ms after SIGTERM/);
    expect(output).not.toContain('Still closing');

    // It kept serving for the drain, then exited inside its grace period (an upper bound it sets itself).
    const exitMs = exit.at - signalledAt;
    expect(exitMs).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(exitMs).toBeLessThan(GRACE_MS);
  }, 120_000);
});

describe('stopping a worker (SIGTERM while a job runs)', () => {
  const GRACE_MS = 4000;
  const smtp = new SmtpStandIn();
  const encryptionKeys = `k1:${randomBytes(32).toString('base64')}`;
  let t: TestApp;
  const workers: Started[] = [];
  let ip = 0;

  function startWorker(): Started {
    const worker = start(workerJs, {
      DATABASE_URL: t.db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: t.queuePrefix,
      ENCRYPTION_KEYS: encryptionKeys,
      SMTP_URL: smtp.url,
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    workers.push(worker);
    return worker;
  }

  async function mailBeingSent(worker: Started): Promise<void> {
    ip += 1;
    const response = await t.fetch('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.77.0.${ip}` },
      body: JSON.stringify({ name: 'Ana', email: `stop${ip}@example.com`, subject: 'general', message: 'Un mensaje para parar el worker.', consent: true }),
    });
    expect(response.status).toBe(202);
    await pollUntil(async () => smtp.held === 1, 'the worker to be mailing the message', { timeoutMs: 30_000, detail: () => `Output:\n${worker.output()}` });
  }

  beforeAll(async () => {
    await smtp.start(0);
    t = await startTestApp({ role: 'web', env: { SMTP_URL: smtp.url, ENCRYPTION_KEYS: encryptionKeys, TRUST_PROXY: 'true' } });
  }, 60_000);

  afterAll(async () => {
    for (const worker of workers) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      await worker.exited;
    }
    smtp.releaseAnswers();
    await t?.close();
    await smtp.stop();
  });

  it('finishes the job it is running, then exits cleanly within its grace period', async () => {
    smtp.holdAnswers();
    const worker = startWorker();
    await mailBeingSent(worker);
    const signalledAt = performance.now();
    worker.child.kill('SIGTERM');
    await pollUntil(async () => worker.output().includes('Received SIGTERM'), 'the worker to start stopping');
    smtp.releaseAnswers();
    const exit = await worker.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(GRACE_MS);
    expect(smtp.received).toHaveLength(1);
  }, 60_000);

  it('exits at its grace period when a job never ends, instead of waiting for the orchestrator to kill it', async () => {
    smtp.holdAnswers();
    const worker = startWorker();
    await mailBeingSent(worker);
    const signalledAt = performance.now();
    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    // The mail server never answered: the process gave up on the job (another worker runs it again later).
    expect(exit.code).toBe(1);
    expect(worker.output()).toMatch(/Still closing \d+ ms after SIGTERM: exiting now \(SHUTDOWN_GRACE_MS is 4000\)/);
    const exitMs = exit.at - signalledAt;
    expect(exitMs).toBeGreaterThanOrEqual(GRACE_MS);
    // Docs: give the orchestrator SHUTDOWN_GRACE_MS plus 5 s (Kubernetes' default 30 s for the default 25 s).
    expect(exitMs).toBeLessThan(GRACE_MS + 5000);
  }, 60_000);
});
