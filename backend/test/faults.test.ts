import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MikroORM } from '@mikro-orm/postgresql';
import { Queue, QueueEvents } from 'bullmq';
import { pollUntil } from '@life/test-support';
import { CONTACT_MAIL_QUEUE } from '../src/modules/contact/jobs/contact-mail.job.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { SmtpStandIn } from './helpers/smtp-standin.js';
import { TcpProxy } from './helpers/tcp-proxy.js';
import { startTestApp, TEST_REDIS_URL, type TestApp } from './helpers/test-app.js';
import { createTestDatabase, TEST_DATABASE_ADMIN_URL } from './helpers/test-database.js';

/**
 * Faults, against the real PostgreSQL and Redis: those servers are shared with other test runs,
 * so they are never stopped here. Each outage is played by a TCP proxy between the app and the
 * server (helpers/tcp-proxy.ts), and a worker is a real `node dist/worker.js` process killed with
 * SIGKILL. Everything waits with `pollUntil`; a request's own timeout is what proves "no hang".
 */

// Answers are read as loose JSON: the assertions are the schema here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Longest any request may take, outage or not (the database connect timeout is 5 s). */
const REQUEST_TIMEOUT_MS = 10_000;

const targetOf = (url: string) => {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
};

interface Answer {
  status: number;
  headers: Headers;
  body: Json | undefined;
  text: string;
}

/** One request that must answer within REQUEST_TIMEOUT_MS (an AbortSignal fails it otherwise). */
async function call(t: TestApp, pathname: string, init: RequestInit = {}): Promise<Answer> {
  const response = await t.fetch(pathname, { redirect: 'manual', ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  let body: Json | undefined;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The clear failure we promise while a service is away: 503, our JSON error, Retry-After, no stack. */
function expectUnavailable(answer: Answer): void {
  expect({ status: answer.status, error: answer.body?.error }).toEqual({ status: 503, error: 'service_unavailable' });
  expect(answer.headers.get('content-type')).toContain('application/json');
  expect(typeof answer.body?.message).toBe('string');
  expect(typeof answer.body?.requestId).toBe('string');
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(answer.text).not.toMatch(/\bat .+\.(js|ts):\d+/);
}

let ipCounter = 0;
/** A contact message from its own client IP (TRUST_PROXY=true), so rate limits never interfere. */
function sendContact(t: TestApp, email: string): Promise<Answer> {
  ipCounter += 1;
  return call(t, '/api/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': `10.99.0.${ipCounter}` },
    body: JSON.stringify({ name: 'Ana García', email, subject: 'general', message: 'Hola: esto es un mensaje de prueba de fallos.', consent: true }),
  });
}

const uniqueEmail = (tag: string) => `${tag}.${randomBytes(4).toString('hex')}@example.com`;

interface MessageRow {
  id: string;
  status: 'received' | 'sent' | 'failed';
  attempts: number;
}

async function messageByEmail(t: TestApp, email: string): Promise<MessageRow | undefined> {
  return (await t.db.query<MessageRow>(`select id, status, attempts from contact_messages where email = $1`, [email])).rows[0];
}

/** Nothing waiting, running or scheduled for a retry on `contact-mail` (read straight from Redis). */
async function queueIdle(queue: Queue): Promise<boolean> {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
  return Object.values(counts).every((n) => n === 0);
}

const contactQueue = (t: TestApp) => new Queue(CONTACT_MAIL_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix: t.queuePrefix });

describe('Redis goes away and comes back while the app serves', () => {
  const smtp = new SmtpStandIn();
  let redis: TcpProxy;
  let t: TestApp;
  let queue: Queue;
  let user: SeededUser;

  beforeAll(async () => {
    await smtp.start(0);
    redis = await TcpProxy.start(targetOf(TEST_REDIS_URL));
    t = await startTestApp({
      role: 'all',
      env: {
        REDIS_URL: redis.proxied(TEST_REDIS_URL),
        SMTP_URL: smtp.url,
        CONTACT_RETRY_DELAY_MS: '1000',
        CONTACT_SWEEP_MS: '500',
        // A job that was running when Redis went away is handed out again soon after it is back.
        QUEUE_LOCK_DURATION_MS: '2000',
        QUEUE_STALLED_INTERVAL_MS: '1000',
        DEV_LOGIN: 'on',
        TRUST_PROXY: 'true',
      },
    });
    queue = contactQueue(t);
    [user] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await queue?.close();
    redis?.resume();
    await t?.close();
    await redis?.close();
    await smtp.stop();
  });

  it('sessions keep working, sign-in answers 503 JSON, and contact messages queued before or during the outage are mailed once after', async () => {
    const auth = { headers: bearer(user.token) };
    const startSignIn = () => call(t, '/login/github', { headers: { accept: 'application/json' } });
    expect((await call(t, '/api/users/me', auth)).status).toBe(200);
    expect((await startSignIn()).status).toBe(302);

    // Just before the outage: a message whose first delivery failed (mail server down), so its
    // job waits in Redis for a retry.
    const smtpPort = smtp.port;
    await smtp.stop();
    const beforeEmail = uniqueEmail('before');
    expect((await sendContact(t, beforeEmail)).status).toBe(202);
    await pollUntil(async () => ((await messageByEmail(t, beforeEmail))?.attempts ?? 0) >= 1, 'a failed first delivery');

    redis.stop();
    await smtp.start(smtpPort);

    // Signed-in people keep using the app: sessions and data are in PostgreSQL.
    const me = await call(t, '/api/users/me', auth);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email: user.email });
    const dashboard = await call(t, '/api/external-services/all', auth);
    expect(dashboard.status).toBe(200);
    expect(Array.isArray(dashboard.body)).toBe(true);

    // Starting a sign-in needs its state in Redis: a clear 503, not a 500 or a hang.
    expectUnavailable(await startSignIn());
    expect((await call(t, '/api/health')).status).toBe(503);

    // During the outage: the message is stored and accepted; it is mailed once Redis is back.
    const duringEmail = uniqueEmail('during');
    const during = await sendContact(t, duringEmail);
    expect(during.status).toBe(202);
    expect(await messageByEmail(t, duringEmail)).toMatchObject({ status: 'received' });

    // Redis accepting connections but never answering: the same answers, within the command timeout.
    redis.hang();
    expect((await call(t, '/api/users/me', auth)).status).toBe(200);
    expectUnavailable(await startSignIn());

    redis.resume();

    await pollUntil(
      async () => (await messageByEmail(t, beforeEmail))?.status === 'sent' && (await messageByEmail(t, duringEmail))?.status === 'sent',
      'both messages mailed after Redis is back',
      { timeoutMs: 30_000 },
    );
    await pollUntil(() => queueIdle(queue), 'the contact-mail queue to be idle');
    const before = (await messageByEmail(t, beforeEmail))!;
    const duringRow = (await messageByEmail(t, duringEmail))!;
    expect(smtp.mailsFor(before.id)).toHaveLength(1);
    expect(smtp.mailsFor(duringRow.id)).toHaveLength(1);

    // Sign-in works again without restarting anything.
    expect((await startSignIn()).status).toBe(302);
    expect((await call(t, '/api/users/me', auth)).status).toBe(200);
    expect((await call(t, '/api/health')).status).toBe(200);
  }, 60_000);
});

describe('PostgreSQL goes away and comes back while the app serves', () => {
  let database: TcpProxy;
  let t: TestApp;
  let user: SeededUser;

  beforeAll(async () => {
    database = await TcpProxy.start(targetOf(TEST_DATABASE_ADMIN_URL));
    const db = await createTestDatabase();
    t = await startTestApp({ role: 'all', db, env: { DATABASE_URL: database.proxied(db.url), TRUST_PROXY: 'true' } });
    // The test's own connection goes straight to the server, so it can look while the app cannot.
    [user] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    database?.resume();
    await t?.close();
    await database?.close();
  });

  it('answers 503 JSON within a bounded time while it is away, and recovers without a restart', async () => {
    const auth = { headers: bearer(user.token) };
    expect((await call(t, '/api/users/me', auth)).status).toBe(200);

    // The server goes away in the middle of a transaction: it fails, and its connection is not leaked.
    const orm = t.app.get(MikroORM);
    await expect(
      orm.em.fork().transactional(async (em) => {
        await em.execute('select 1');
        database.stop();
        await em.execute('select 1');
      }),
    ).rejects.toThrow();

    // Stopped: connections are refused. The session read a moment ago may still be remembered
    // (SESSION_CACHE_MS, at most a second), and /api/users/me needs nothing else: once that
    // memory lapses it too answers the clear 503.
    expectUnavailable(await call(t, '/api/external-services/all', auth));
    await pollUntil(async () => (await call(t, '/api/users/me', auth)).status === 503, 'the remembered session to lapse');
    expectUnavailable(await call(t, '/api/users/me', auth));
    expectUnavailable(await sendContact(t, uniqueEmail('down')));
    expect((await call(t, '/api/health')).status).toBe(503);

    // Hanging: connections are accepted and never answered; the connect timeout bounds the wait.
    database.hang();
    expectUnavailable(await call(t, '/api/users/me', auth));

    database.resume();
    await pollUntil(async () => (await call(t, '/api/users/me', auth)).status === 200, 'the app to serve again once the database is back');
    expect((await call(t, '/api/external-services/all', auth)).status).toBe(200);
    const email = uniqueEmail('after');
    expect((await sendContact(t, email)).status).toBe(202);
    expect(await messageByEmail(t, email)).toMatchObject({ status: 'received' });
    expect((await call(t, '/api/health')).status).toBe(200);

    // No connection stays checked out for good (a leaked one never comes back to the pool).
    const pool = (await orm.em.getDriver().getConnection().getNativeClient()) as unknown as { totalCount: number; idleCount: number };
    await pollUntil(async () => pool.totalCount === pool.idleCount, 'every pooled connection to be idle again');
  }, 60_000);
});

describe('a worker process killed in the middle of a job', () => {
  const workerJs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'worker.js');
  const smtp = new SmtpStandIn();
  const encryptionKeys = `k1:${randomBytes(32).toString('base64')}`;
  let t: TestApp;
  let queue: Queue;
  let events: QueueEvents;
  const workers: { child: ChildProcess; output: () => string; exited: Promise<NodeJS.Signals | number | null> }[] = [];

  /** `node dist/worker.js` on the same database, Redis and queue prefix as the web app under test. */
  function startWorker() {
    let output = '';
    const child = spawn(process.execPath, [workerJs], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: t.db.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: t.queuePrefix,
        ENCRYPTION_KEYS: encryptionKeys,
        SMTP_URL: smtp.url,
        // A dead worker's job goes back to the queue a few seconds after its last lock renewal.
        QUEUE_LOCK_DURATION_MS: '2000',
        QUEUE_STALLED_INTERVAL_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    const worker = { child, output: () => output, exited };
    workers.push(worker);
    return worker;
  }

  /** `pollUntil`, failing with the workers' output. */
  async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs?: number): Promise<void> {
    await pollUntil(check, what, { timeoutMs, detail: () => workers.map((w, i) => `--- worker ${i + 1}:\n${w.output()}`).join('\n') });
  }

  beforeAll(async () => {
    await smtp.start(0);
    // Web only: the only workers are the processes this test starts and kills.
    t = await startTestApp({ role: 'web', env: { SMTP_URL: smtp.url, ENCRYPTION_KEYS: encryptionKeys, TRUST_PROXY: 'true' } });
    queue = contactQueue(t);
    events = new QueueEvents(CONTACT_MAIL_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix: t.queuePrefix });
    await events.waitUntilReady();
    startWorker();
    await waitFor(async () => (await queue.getWorkersCount()) === 1, 'the first worker to listen on the queue', 30_000);
  }, 60_000);

  afterAll(async () => {
    for (const worker of workers) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      await worker.exited;
    }
    smtp.releaseAnswers();
    await events?.close();
    await queue?.close();
    await t?.close();
    await smtp.stop();
  });

  it('SIGKILL while mailing: another worker takes the job back and the mail is delivered exactly once', async () => {
    const stalled: string[] = [];
    events.on('stalled', ({ jobId }) => stalled.push(jobId));
    const [first] = workers;

    // The mail server takes the whole message but holds its final answer: the job stays active.
    smtp.holdAnswers();
    const email = uniqueEmail('killed');
    expect((await sendContact(t, email)).status).toBe(202);
    const { id } = (await messageByEmail(t, email))!;
    await waitFor(async () => smtp.held === 1, 'the first worker to be mailing the message');
    expect((await queue.getJobCounts('active')).active).toBe(1);

    // A second worker is up; the job stays with the first, which holds its lock.
    const second = startWorker();
    await waitFor(async () => (await queue.getWorkersCount()) === 2, 'the second worker to listen on the queue', 30_000);

    first!.child.kill('SIGKILL');
    expect(await first!.exited).toBe('SIGKILL');
    // The mail server saw the sender hang up before its answer: that message was never accepted.
    await waitFor(async () => smtp.abandoned === 1, 'the mail server to see the first worker hang up');
    smtp.releaseAnswers();
    expect(smtp.mailsFor(id)).toHaveLength(0);
    expect(await messageByEmail(t, email)).toMatchObject({ status: 'received', attempts: 0 });

    // The job is still "active" under the dead worker's lock; once that expires, the second takes it back.
    await waitFor(async () => (await messageByEmail(t, email))?.status === 'sent', 'the second worker to mail the message');
    await waitFor(() => queueIdle(queue), 'the contact-mail queue to be idle');
    expect(stalled).toContain(id);
    expect(smtp.mailsFor(id)).toHaveLength(1);
    expect(await messageByEmail(t, email)).toMatchObject({ status: 'sent', attempts: 1 });

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);

  it('SIGTERM while mailing: the worker finishes the job, then exits cleanly', async () => {
    const worker = startWorker();
    await waitFor(async () => (await queue.getWorkersCount()) === 1, 'a worker to listen on the queue', 30_000);
    let released = false;
    let exitedBeforeRelease = false;
    void worker.exited.then(() => (exitedBeforeRelease = !released));

    smtp.holdAnswers();
    const email = uniqueEmail('sigterm');
    expect((await sendContact(t, email)).status).toBe(202);
    const { id } = (await messageByEmail(t, email))!;
    await waitFor(async () => smtp.held === 1, 'the worker to be mailing the message');

    worker.child.kill('SIGTERM');
    await waitFor(async () => worker.output().includes('Received SIGTERM'), 'the worker to start shutting down');
    released = true;
    smtp.releaseAnswers();

    expect(await worker.exited).toBe(0);
    expect(exitedBeforeRelease).toBe(false);
    expect(smtp.mailsFor(id)).toHaveLength(1);
    expect(await messageByEmail(t, email)).toMatchObject({ status: 'sent', attempts: 1 });
  }, 60_000);
});
