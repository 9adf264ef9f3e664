import { randomBytes } from 'node:crypto';
import { Queue, type Worker } from 'bullmq';
import { pollUntil } from '@life/test-support';
import { configuredWorkerClass } from '../src/core/queue/worker-options.js';
import { TcpProxy } from './helpers/tcp-proxy.js';
import { TEST_REDIS_URL } from './helpers/test-app.js';

/**
 * A queue worker's close is bounded (QUEUE_CLOSE_WAIT_MS): BullMQ's own close can wait forever,
 * for a job that never ends or for a Redis client that lost its server and will not end (the
 * faults.test afterAll that once hung a whole CI run). Real Redis, behind a TCP proxy to cut it.
 */

const CLOSE_WAIT_MS = 400;
const Configured = configuredWorkerClass({ lockDurationMs: 2000, stalledIntervalMs: 1000, closeWaitMs: CLOSE_WAIT_MS });

const target = () => {
  const url = new URL(TEST_REDIS_URL);
  return { host: url.hostname, port: Number(url.port) };
};

/** Settles with 'closed', or 'still closing' if the close takes more than `ms`. */
const closedWithin = (worker: Worker, ms: number) =>
  Promise.race([worker.close().then(() => 'closed'), new Promise<string>((resolve) => setTimeout(() => resolve('still closing'), ms).unref())]);

describe('a queue worker closes within QUEUE_CLOSE_WAIT_MS (real Redis)', () => {
  const prefix = `closetest_${randomBytes(4).toString('hex')}`;
  let proxy: TcpProxy;
  let queue: Queue;
  const workers: Worker[] = [];

  beforeAll(async () => {
    proxy = await TcpProxy.start(target());
    queue = new Queue('close-probe', { connection: { url: TEST_REDIS_URL }, prefix });
  });

  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await proxy.close();
  });

  const startWorker = async (processor: () => Promise<unknown>) => {
    const worker = new Configured('close-probe', processor, { connection: { url: proxy.proxied(TEST_REDIS_URL) }, prefix, autorun: false });
    worker.on('error', () => undefined);
    workers.push(worker);
    void worker.run().catch(() => undefined);
    await worker.waitUntilReady();
    return worker;
  };

  it('when Redis went away: the close ends the worker’s clients instead of waiting for an end that never comes', async () => {
    const worker = await startWorker(async () => 'done');
    await pollUntil(() => proxy.open >= 2, 'the worker’s connections');
    proxy.stop();
    // Both of the worker's clients are now reconnecting, with no server to reach.
    const clients = worker as unknown as { backend: { blockingConnection: { _client: { status: string } } } };
    await pollUntil(() => clients.backend.blockingConnection._client.status === 'reconnecting', 'the blocking client reconnecting');

    expect(await closedWithin(worker, CLOSE_WAIT_MS + 5000)).toBe('closed');
    expect(clients.backend.blockingConnection._client.status).toBe('end');
    proxy.resume();
  });

  it('when a job never finishes: the close gives up on it after the wait, and the job is handed out again', async () => {
    let started = 0;
    const stuck = await startWorker(() => {
      started += 1;
      return new Promise(() => undefined);
    });
    const job = await queue.add('forever', {}, { jobId: `forever-${randomBytes(3).toString('hex')}` });
    await pollUntil(() => started === 1, 'the job to start');

    expect(await closedWithin(stuck, CLOSE_WAIT_MS + 5000)).toBe('closed');

    // Its lock expires and another worker runs it (as after a crash).
    const done = await startWorker(async () => 'second try');
    await pollUntil(async () => (await queue.getJob(job.id!))?.returnvalue === 'second try', 'the job run by the other worker', { timeoutMs: 20_000 });
    expect(started).toBe(1);
    await done.close();
  });
});
