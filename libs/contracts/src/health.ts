import { z } from 'zod';

const ComponentSchema = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number().optional(),
  message: z.string().optional(),
  count: z.number().optional(),
});

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'error']),
    info: z.record(z.string(), ComponentSchema),
    error: z.record(z.string(), ComponentSchema),
    details: z.record(z.string(), ComponentSchema),
    version: z.string(),
    uptimeSeconds: z.number(),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;

/**
 * `GET /api/health/live`: the process answers (liveness). 200 as long as it runs, while it stops
 * too (`stopping`), whatever its database and Redis do: restarting it would not bring those back.
 */
export const LivenessSchema = z
  .object({
    status: z.literal('ok'),
    /** Told to stop (SIGTERM): readiness answers 503 while the process drains and closes. */
    stopping: z.boolean(),
    version: z.string(),
    uptimeSeconds: z.number(),
  })
  .meta({ id: 'Liveness' });
export type Liveness = z.infer<typeof LivenessSchema>;

/** A dependency the app cannot work without, as the admin's Salud section shows it. */
export const DependencyHealthSchema = z
  .object({
    status: z.enum(['up', 'down']),
    /** Round trip of a trivial command, in milliseconds; null when it did not answer. */
    latencyMs: z.number().nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: 'DependencyHealth' });
export type DependencyHealth = z.infer<typeof DependencyHealthSchema>;

/** How many failed jobs of each queue the Salud section lists (the newest). */
export const FAILED_JOBS_SHOWN = 20;

/** A job that used up its attempts (BullMQ's own field names; times in epoch milliseconds). */
export const FailedJobSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    failedReason: z.string(),
    attemptsMade: z.number().int(),
    /** When it was added. */
    timestamp: z.number(),
    /** When its last attempt failed. */
    finishedOn: z.number().nullable(),
  })
  .meta({ id: 'FailedJob' });
export type FailedJob = z.infer<typeof FailedJobSchema>;

export const QueueHealthSchema = z
  .object({
    name: z.string(),
    /** null when Redis did not answer. BullMQ's other states (completed, paused…) are left out. */
    counts: z.object({ waiting: z.number().int(), active: z.number().int(), delayed: z.number().int(), failed: z.number().int() }).nullable(),
    /** The newest failed jobs, at most FAILED_JOBS_SHOWN (counts.failed says how many there are). */
    failed: z.array(FailedJobSchema),
  })
  .meta({ id: 'QueueHealth' });
export type QueueHealth = z.infer<typeof QueueHealthSchema>;

/** A worker process that announced itself recently (its Redis key expires when it stops). */
export const WorkerHeartbeatSchema = z
  .object({
    /** `host:pid`. */
    id: z.string(),
    host: z.string(),
    pid: z.number().int().nullable(),
    /** Its last beat (ISO 8601). */
    lastBeatAt: z.string().nullable(),
    /** Seconds until its key expires if it stops beating. */
    expiresInSeconds: z.number().int().nullable(),
  })
  .meta({ id: 'WorkerHeartbeat' });
export type WorkerHeartbeat = z.infer<typeof WorkerHeartbeatSchema>;

/** Connections of one service whose token refresh is failing, newest failure first. */
export const RefreshFailureSchema = z
  .object({
    service: z.string(),
    /** Still connected, retrying with backoff. */
    failing: z.number().int(),
    /** Gave up: the person must connect again. */
    needsReconnect: z.number().int(),
    lastFailureAt: z.string(),
    lastError: z.string().nullable(),
  })
  .meta({ id: 'RefreshFailure' });
export type RefreshFailure = z.infer<typeof RefreshFailureSchema>;

/**
 * A Stripe webhook event that gave up after its attempts (docs/billing.md): kept, not applied,
 * until an admin retries or dismisses it.
 */
export const StripeEventAttentionSchema = z
  .object({
    /** Stripe's event id (evt_…). */
    id: z.string(),
    type: z.string(),
    receivedAt: z.string(),
    failedAt: z.string(),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
  })
  .meta({ id: 'StripeEventAttention' });
export type StripeEventAttention = z.infer<typeof StripeEventAttentionSchema>;

/** A stored Stripe event in a path. */
export const StripeEventParamsSchema = z.object({ id: z.string().min(1).max(255) }).strict();
export type StripeEventParams = z.infer<typeof StripeEventParamsSchema>;

/** `GET /api/admin/health`: everything the Salud section shows, in one answer. */
export const SystemHealthSchema = z
  .object({
    /** ok when PostgreSQL and Redis answer. */
    status: z.enum(['ok', 'error']),
    checkedAt: z.string(),
    version: z.string(),
    uptimeSeconds: z.number(),
    /** The Redis prefix of this installation's keys and queues (QUEUE_PREFIX, else derived from its database). */
    queuePrefix: z.string(),
    database: DependencyHealthSchema,
    redis: DependencyHealthSchema,
    queues: z.array(QueueHealthSchema),
    /** null when Redis did not answer. */
    workers: z.array(WorkerHeartbeatSchema).nullable(),
    /** null when PostgreSQL did not answer. */
    refreshFailures: z.array(RefreshFailureSchema).nullable(),
    /** Stripe events needing attention, newest failure first; null when PostgreSQL did not answer. */
    stripeEvents: z.array(StripeEventAttentionSchema).nullable(),
  })
  .meta({ id: 'SystemHealth' });
export type SystemHealth = z.infer<typeof SystemHealthSchema>;

/** A queue's job in a path: any name (one not in the list is a 404), a BullMQ job id. */
export const QueueJobParamsSchema = z
  .object({
    queue: z.string().min(1).max(100),
    id: z.string().min(1).max(200),
  })
  .strict();
export type QueueJobParams = z.infer<typeof QueueJobParamsSchema>;
