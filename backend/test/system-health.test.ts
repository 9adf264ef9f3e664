import { hostname } from 'node:os';
import { getQueueToken } from '@nestjs/bullmq';
import { SystemHealthSchema } from '@life/contracts';
import type { Queue } from 'bullmq';
import { pollUntil } from '@life/test-support';
import { VAULT_QUEUE, type ReencryptJob } from '../src/modules/external-services/jobs/token-refresh.job.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The admin's 'Salud del Sistema' against the real app (real PostgreSQL + Redis, web and the
 * queue workers in one process): the report, and the failed jobs' retry and discard.
 */

// Answers are read as loose JSON: the assertions are the schema here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const APP_QUEUES = ['account-erasure', 'contact-mail', 'data-export', 'day-sync', 'outbox', 'periodic', 'stripe-events', 'token-refresh', 'vault-keys'];

describe('Salud del Sistema: GET /api/admin/health and the failed-job actions (real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let user: SeededUser;
  let vault: Queue<ReencryptJob>;

  const report = async (): Promise<Json> => {
    const response = await t.fetch('/api/admin/health', { headers: bearer(admin.token) });
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };
  const queueIn = (body: Json, name: string): Json => (body.queues as Json[]).find((queue) => queue.name === name)!;
  const act = (method: 'POST' | 'DELETE', queue: string, id: string, token = admin.token) =>
    t.fetch(`/api/admin/queues/${encodeURIComponent(queue)}/jobs/${encodeURIComponent(id)}${method === 'POST' ? '/retry' : ''}`, {
      method,
      headers: { ...bearer(token), accept: 'application/json' },
    });
  /** A key-rotation job that asks for a key this worker does not have: its processor throws. */
  const failingJob = async () => {
    const job = await vault.add('reencrypt', { primaryKeyId: 'not-this-workers-key', requestedAt: new Date().toISOString() }, { attempts: 1 });
    await pollUntil(async () => (await job.getState()) === 'failed', `job ${job.id} to fail`);
    return (await vault.getJob(job.id!))!;
  };
  const auditActions = async (): Promise<Json[]> => {
    const response = await t.fetch('/api/admin/audit?limit=50', { headers: bearer(admin.token) });
    expect(response.status).toBe(200);
    return ((await response.json()) as Json).items as Json[];
  };

  beforeAll(async () => {
    t = await startTestApp({ role: 'all' });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [user] = await seedUsers(t.db, 1);
    vault = t.app.get<Queue<ReencryptJob>>(getQueueToken(VAULT_QUEUE), { strict: false });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('reports PostgreSQL and Redis up with their latency, every queue with counts, this worker, the version and the uptime', async () => {
    const response = await t.fetch('/api/admin/health', { headers: bearer(admin.token) });
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Json;
    // The page reads it with the same schema.
    expect(SystemHealthSchema.safeParse(body).error).toBeUndefined();
    expect(body.status).toBe('ok');
    for (const dependency of [body.database, body.redis]) {
      expect(dependency.status).toBe('up');
      expect(typeof dependency.latencyMs).toBe('number');
      expect(dependency.latencyMs).toBeGreaterThanOrEqual(0);
      expect(dependency.message).toBeNull();
    }
    expect((body.queues as Json[]).map((queue) => queue.name)).toEqual(APP_QUEUES);
    for (const queue of body.queues as Json[]) {
      expect(Object.keys(queue.counts as Json).sort()).toEqual(['active', 'delayed', 'failed', 'waiting']);
      for (const count of Object.values(queue.counts as Json)) expect(Number.isInteger(count)).toBe(true);
      expect(Array.isArray(queue.failed)).toBe(true);
    }
    const self = (body.workers as Json[]).find((worker) => worker.id === `${hostname()}:${process.pid}`);
    expect(self).toMatchObject({ host: hostname(), pid: process.pid });
    expect(Date.parse(self!.lastBeatAt as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(self!.expiresInSeconds).toBeGreaterThan(0);
    expect(self!.expiresInSeconds).toBeLessThanOrEqual(30);
    expect(body.version).toBe(t.runtime.config.version);
    expect(typeof body.uptimeSeconds).toBe('number');
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(body.checkedAt as string))).toBe(false);
    expect(body.refreshFailures).toEqual([]);
  });

  it('lists token-refresh failures by service, the most recent first, with the latest error', async () => {
    const insert = (owner: SeededUser, service: string, status: string, failures: number, error: string | null, minutesAgo: number) =>
      t.db.query(
        `insert into service_connections (id, created_at, updated_at, user_id, service_id, status, access_token_encrypted, refresh_failures, last_error)
         select gen_random_uuid(), now(), now() - $1 * interval '1 minute', $2, id, $3, 'sealed', $4, $5 from external_services where service_name = $6`,
        [minutesAgo, owner.id, status, failures, error, service],
      );
    const [other] = await seedUsers(t.db, 1);
    await insert(user, 'spotify', 'connected', 2, 'token endpoint answered 503', 10);
    await insert(other!, 'spotify', 'needs_reconnect', 1, 'invalid_grant: refresh token revoked', 5);
    await insert(user, 'github', 'connected', 1, 'timed out after 10000 ms', 30);
    // Healthy connections are not failures.
    await insert(other!, 'github', 'connected', 0, null, 1);

    const body = await report();
    expect(body.refreshFailures).toEqual([
      { service: 'spotify', failing: 1, needsReconnect: 1, lastFailureAt: expect.any(String), lastError: 'invalid_grant: refresh token revoked' },
      { service: 'github', failing: 1, needsReconnect: 0, lastFailureAt: expect.any(String), lastError: 'timed out after 10000 ms' },
    ]);
    expect(Date.parse(body.refreshFailures[0].lastFailureAt as string)).toBeGreaterThan(Date.parse(body.refreshFailures[1].lastFailureAt as string));
  });

  it('lists a failed job, retries it (it runs again) and discards it, and the audit log records both', async () => {
    const job = await failingJob();
    let listed = (queueIn(await report(), VAULT_QUEUE).failed as Json[]).find((failed) => failed.id === job.id);
    expect(listed).toEqual({
      id: job.id,
      name: 'reencrypt',
      failedReason: expect.stringContaining('deploy the new ENCRYPTION_KEYS'),
      attemptsMade: 1,
      timestamp: job.timestamp,
      finishedOn: job.finishedOn,
    });
    expect(queueIn(await report(), VAULT_QUEUE).counts.failed).toBeGreaterThanOrEqual(1);

    const retried = await act('POST', VAULT_QUEUE, job.id!);
    expect(retried.status).toBe(204);
    // The worker runs it again, and it fails again on the same bad payload.
    await pollUntil(async () => {
      const again = await vault.getJob(job.id!);
      return (await again?.getState()) === 'failed' && again!.finishedOn !== job.finishedOn;
    }, 'the retried job to run and fail again');
    listed = (queueIn(await report(), VAULT_QUEUE).failed as Json[]).find((failed) => failed.id === job.id);
    expect(listed!.attemptsMade).toBe(1);
    expect(listed!.finishedOn).toBeGreaterThan(job.finishedOn!);

    const discarded = await act('DELETE', VAULT_QUEUE, job.id!);
    expect(discarded.status).toBe(204);
    expect(await vault.getJob(job.id!)).toBeUndefined();
    expect((queueIn(await report(), VAULT_QUEUE).failed as Json[]).some((failed) => failed.id === job.id)).toBe(false);

    const audit = await auditActions();
    for (const action of ['admin.queue_job_retried', 'admin.queue_job_discarded']) {
      expect(audit.find((event) => event.action === action)).toMatchObject({
        actor_id: admin.id,
        actor_label: admin.email,
        target_type: 'queue_job',
        target_id: `${VAULT_QUEUE}/${job.id}`,
      });
    }
  });

  it('answers 409 for a job that has not failed, and leaves it alone', async () => {
    const waiting = await vault.add('reencrypt', { primaryKeyId: 'later', requestedAt: new Date().toISOString() }, { delay: 3_600_000 });
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await act(method, VAULT_QUEUE, waiting.id!);
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ error: 'job_not_failed', message: expect.stringContaining('delayed') });
    }
    expect(await waiting.getState()).toBe('delayed');
    await waiting.remove();
  });

  it('answers 404 JSON for an unknown queue or job, including ids that name the queue’s own keys', async () => {
    const job = await failingJob();
    for (const method of ['POST', 'DELETE'] as const) {
      const unknownQueue = await act(method, 'no-such-queue', job.id!);
      expect(unknownQueue.status).toBe(404);
      expect(unknownQueue.headers.get('content-type')).toContain('application/json');
      expect(await unknownQueue.json()).toMatchObject({ error: 'queue_not_found', message: expect.stringContaining('vault-keys') });
      for (const id of ['999999', 'meta', 'events', 'id', 'failed', '../meta', 'x'.repeat(200)]) {
        const unknownJob = await act(method, VAULT_QUEUE, id);
        expect([id, unknownJob.status]).toEqual([id, 404]);
        expect(await unknownJob.json()).toMatchObject({ error: 'job_not_found', message: expect.any(String) });
      }
    }
    const tooLong = await act('POST', VAULT_QUEUE, 'x'.repeat(201));
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ error: 'validation_failed' });
    // None of that touched the failed job.
    expect(await job.getState()).toBe('failed');
    expect(await (await t.fetch('/api/admin/health', { headers: bearer(admin.token) })).json()).toMatchObject({ status: 'ok' });
  });

  it('is for admins only: 401 without a session, 403 for a user', async () => {
    const job = await failingJob();
    const routes: [string, string][] = [
      ['GET', '/api/admin/health'],
      ['POST', `/api/admin/queues/${VAULT_QUEUE}/jobs/${job.id}/retry`],
      ['DELETE', `/api/admin/queues/${VAULT_QUEUE}/jobs/${job.id}`],
    ];
    for (const [method, path] of routes) {
      expect([path, (await t.fetch(path, { method })).status]).toEqual([path, 401]);
      expect([path, (await t.fetch(path, { method, headers: bearer(user.token) })).status]).toEqual([path, 403]);
    }
    expect(await job.getState()).toBe('failed');
  });
});
