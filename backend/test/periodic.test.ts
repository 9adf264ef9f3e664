import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { pollUntil } from '@life/test-support';
import { createWorkerContext, prepareRuntime } from '../src/bootstrap.js';
import { PERIODIC_QUEUE, RETIRED_SCHEDULES } from '../src/core/queue/periodic-scheduler.js';
import { bearer, seedUsers } from './helpers/seed.js';
import { startTestApp, testEnv, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const SWEEPS = [
  'BillingSweeper',
  'ContactSweeper',
  'DataRightsSweeper',
  'DaySyncSweeper',
  'ExpiredTokensSweeper',
  'OutboxRelaySweeper',
  'RefreshGraceSweeper',
  'TokenRefreshSweeper',
];

describe('periodic work: BullMQ job schedulers shared by every worker (real PostgreSQL + Redis, two processes)', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let queue: Queue;

  beforeAll(async () => {
    t = await startTestApp({ role: 'all', env: { TOKEN_REFRESH_SWEEP_MS: '45000' } });
    // A second process, role worker, on the same database, Redis and queue prefix.
    worker = await createWorkerContext(
      await prepareRuntime('worker', testEnv(t.db, t.queuePrefix, { ENCRYPTION_KEYS: t.runtime.config.encryptionKeys!, TOKEN_REFRESH_SWEEP_MS: '45000' })),
    );
    queue = t.app.get<Queue>(getQueueToken(PERIODIC_QUEUE));
  });

  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });

  it('keeps one schedule per sweep in Redis, however many workers started, with its interval', async () => {
    const schedulers = await queue.getJobSchedulers(0, -1, true);
    expect(schedulers.map((scheduler) => scheduler.key).sort()).toEqual(SWEEPS);
    expect(schedulers.find((scheduler) => scheduler.key === 'TokenRefreshSweeper')?.every).toBe(45000);
    // Not timers in each process: the two processes share these, and the next tick waits in Redis.
    const delayed = await queue.getDelayed();
    expect(delayed.filter((job) => job.name === 'TokenRefreshSweeper').length).toBeLessThanOrEqual(1);
  });

  it('drops a retired schedule when a worker starts, and keeps one it merely does not know', async () => {
    await queue.upsertJobScheduler('RetiredSweep', { every: 60_000 }, { name: 'RetiredSweep' });
    await queue.upsertJobScheduler('NewerVersionSweep', { every: 60_000 }, { name: 'NewerVersionSweep' });
    RETIRED_SCHEDULES.push('RetiredSweep');
    const another = await createWorkerContext(
      await prepareRuntime('worker', testEnv(t.db, t.queuePrefix, { ENCRYPTION_KEYS: t.runtime.config.encryptionKeys!, TOKEN_REFRESH_SWEEP_MS: '45000' })),
    );
    try {
      const keys = (await queue.getJobSchedulers(0, -1, true)).map((scheduler) => scheduler.key).sort();
      expect(keys).toEqual([...SWEEPS, 'NewerVersionSweep'].sort());
    } finally {
      RETIRED_SCHEDULES.pop();
      await queue.removeJobScheduler('NewerVersionSweep');
      await another.close();
    }
  });

  it('runs the first tick of every sweep at once, on one of the workers', async () => {
    const done = await pollUntil(async () => {
      const completed = await queue.getCompleted();
      const names = new Set(completed.map((job) => job.name));
      return SWEEPS.every((name) => names.has(name)) ? completed : undefined;
    }, 'the first tick of every sweep');
    // The first tick ran once, not once per process (the next one is minutes away).
    expect(done.filter((job) => job.name === 'BillingSweeper').length).toBe(1);
  });

  it('keeps a failed run as a failed job, which Salud shows with its reason', async () => {
    await queue.add('NoSuchSweep', {}, { removeOnFail: { count: 10 } });
    const failed = await pollUntil(async () => (await queue.getFailed()).find((job) => job.name === 'NoSuchSweep'), 'the failed job');
    expect(failed.failedReason).toContain('No periodic work named NoSuchSweep');
    const [admin] = await seedUsers(t.db, 1, 'admin');
    const body = (await (await t.fetch('/api/admin/health', { headers: bearer(admin!.token) })).json()) as Json;
    const periodic = (body.queues as Json[]).find((entry) => entry.name === PERIODIC_QUEUE)!;
    expect(periodic.counts.failed).toBeGreaterThanOrEqual(1);
    expect((periodic.failed as Json[]).map((job) => job.name)).toContain('NoSuchSweep');
  });
});
