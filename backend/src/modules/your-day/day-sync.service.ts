import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CreateRequestContext } from '@mikro-orm/decorators/legacy';
import { QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { isDayService, serviceDisplayName, type DayProblem, type DayService } from '@life/contracts';
import type { Queue } from 'bullmq';
import { sql } from 'kysely';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { KeyRing } from '../../core/crypto/key-ring.js';
import { AppError } from '../../core/http/app-error.js';
import { outboundFetch, type OutboundFetch } from '../../core/http/outbound-fetch.js';
import { msg } from '../../core/i18n/messages.js';
import { addOnce, KEEP_FAILED } from '../../core/queue/jobs.js';
import { ServiceAccessTokenQuery, ServiceApiBaseQuery, type UsableToken } from '../external-services/public/queries.js';
import { sealSnapshot, SnapshotSchema, type Snapshot } from './day-snapshot.js';
import type { YourDayDb } from './entities/index.js';
import { DAY_SYNC_QUEUE, daySyncJobId, SYNC_VIEW, type DaySyncJob } from './jobs/day-sync.job.js';
import { isHueResourceId, switchHueLight } from './providers/philips-hue.js';
import { providerCall, type CallCredentials } from './providers/provider-call.js';
import { VIEW_FETCHERS } from './providers/registry.js';
import { ProviderCallError, type ProviderCall, type ProviderFailure, type ViewContext } from './providers/types.js';
import { YourDayError, YourDayErrorCode } from './your-day.errors.js';

export type SyncOutcome = 'stored' | 'failed' | 'skipped' | 'gone';

/** The longest a failing view waits between two tries. */
const MAX_BACKOFF_MS = 6 * 3600_000;
/** A view whose connection waits for a reconnect (or lacks a scope) is tried again this late; reconnecting tries at once. */
const BLOCKED_RETRY_MS = 12 * 3600_000;
/** While a view's job is queued or running, the sweeper leaves it alone this long (a lost job is queued again after it). */
export const SYNC_LEASE_MS = 10 * 60_000;
/** Views queued per sweeper pass, and passes per tick at most. */
const SWEEP_BATCH = 2000;
const SWEEP_PASSES = 10;

const DEFAULT_ZONE = 'UTC';

/**
 * The worker side of "Tu día" (docs/your-day.md): fetches one view from its provider with the
 * person's token (through external-services' token access: refreshed when due, refreshed again on
 * a 401), keeps only what the screens show, sealed, with an expiry, and decides when to try next
 * (the fetcher's interval, the provider's Retry-After, an exponential backoff while it is down).
 * The same code path runs against the real providers and the stand-ins.
 */
@Injectable()
export class DaySyncService {
  private readonly logger = new Logger('DaySync');
  private readonly fetch: OutboundFetch;

  constructor(
    private readonly em: EntityManager,
    private readonly queries: QueryBus,
    private readonly ring: KeyRing,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(DAY_SYNC_QUEUE) private readonly queue: Queue<DaySyncJob>,
  ) {
    this.fetch = outboundFetch(config.allowPrivateServiceUrls);
  }

  private db() {
    return this.em.getKysely<YourDayDb>();
  }

  /** Queues a fetch of the view now, unless one is waiting or running; true when a fetch is coming. */
  async enqueue(userId: string, service: string): Promise<boolean> {
    const outcome = await addOnce(
      this.queue,
      SYNC_VIEW,
      { userId, service },
      { jobId: daySyncJobId(userId, service), attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
      60_000,
    );
    // 'waiting': one is queued or running already, so a fetch is coming all the same.
    return outcome !== 'failed';
  }

  /** The view's row, made when missing (a connection made before "Tu día", or just now); true when it was made. */
  async ensureView(userId: string, service: string): Promise<boolean> {
    const made = await this.db()
      .insertInto('day_views')
      .values({
        id: crypto.randomUUID(),
        user_id: userId,
        service_name: service,
        enabled: true,
        failures: 0,
        next_sync_at: new Date(),
        created_at: new Date(),
        updated_at: new Date(),
      })
      .onConflict((oc) => oc.columns(['user_id', 'service_name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return !!made;
  }

  /** A service was connected (again): its view is fetched now, and a problem of the old connection is forgotten. */
  async connected(userId: string, service: string): Promise<void> {
    if (!isDayService(service)) return;
    await this.ensureView(userId, service);
    const row = await this.db()
      .updateTable('day_views')
      .set({ problem: null, failures: 0, next_sync_at: sql<Date>`now() + ${`${SYNC_LEASE_MS} milliseconds`}::interval`, updated_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('service_name', '=', service)
      .where('enabled', '=', true)
      .returning('id')
      .executeTakeFirst();
    if (row) await this.enqueue(userId, service);
  }

  /**
   * A service was disconnected: its snapshot goes at once. The person's switch is kept when it
   * is off (so reconnecting does not fetch what they turned off); otherwise the row goes.
   */
  async disconnected(userId: string, service: string): Promise<void> {
    await this.db().deleteFrom('day_views').where('user_id', '=', userId).where('service_name', '=', service).where('enabled', '=', true).execute();
    await this.db()
      .updateTable('day_views')
      .set({ view_sealed: null, fetched_at: null, expires_at: null, problem: null, updated_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('service_name', '=', service)
      .execute();
  }

  /** Erasure: every view and the person's zone. */
  async erase(userId: string): Promise<number> {
    const views = await this.db().deleteFrom('day_views').where('user_id', '=', userId).executeTakeFirst();
    await this.db().deleteFrom('day_people').where('user_id', '=', userId).execute();
    return Number(views.numDeletedRows);
  }

  /** The zone and language the person's screens last used (UTC and Spanish before any). */
  async context(userId: string, now = new Date()): Promise<ViewContext> {
    const person = await this.db().selectFrom('day_people').select(['time_zone', 'language']).where('user_id', '=', userId).executeTakeFirst();
    return { now, timeZone: person?.time_zone ?? DEFAULT_ZONE, language: person?.language ?? 'es' };
  }

  /** Provider credentials of the person's connection, as a view fetch uses them. */
  private async credentials(userId: string, service: string, rejected?: string): Promise<CallCredentials> {
    const usable: UsableToken = await this.queries.execute(new ServiceAccessTokenQuery(userId, service, rejected));
    const baseUrl = usable.baseUrl ?? (await this.queries.execute(new ServiceApiBaseQuery(service)));
    if (!baseUrl) throw new ProviderCallError('provider_down', null, null, 'no API base configured');
    return { baseUrl, accessToken: usable.accessToken, scheme: usable.scheme, headers: usable.headers, query: usable.query };
  }

  /** A ProviderCall on the person's connection: refreshed when due, refreshed and retried once on a 401. */
  async call(userId: string, service: string): Promise<ProviderCall> {
    const credentials = await this.credentials(userId, service);
    return providerCall(credentials, {
      fetch: this.fetch,
      onRejected: async (rejected) => {
        try {
          return await this.credentials(userId, service, rejected);
        } catch {
          return null;
        }
      },
    });
  }

  /**
   * One view's fetch (the `day-sync` job). Provider trouble is never thrown: it is written on the
   * row (the last snapshot stays) and the next try is scheduled. Only our own database or Redis
   * failing throws, so the job retries.
   */
  // A job has no request context of its own, and the token access may need one (Hue's bridge
  // link on first use loads the catalog row and the connection as entities).
  @CreateRequestContext()
  async sync(userId: string, service: string, now = new Date()): Promise<SyncOutcome> {
    if (!isDayService(service)) return 'skipped';
    const row = await this.db()
      .selectFrom('day_views')
      .select(['id', 'enabled', 'failures'])
      .where('user_id', '=', userId)
      .where('service_name', '=', service)
      .executeTakeFirst();
    if (!row || !row.enabled) return 'skipped';
    const fetcher = VIEW_FETCHERS[service];
    let snapshot: Snapshot;
    try {
      const call = await this.call(userId, service);
      const fetched = await fetcher.fetch(call, await this.context(userId, now));
      const checked = SnapshotSchema.safeParse(fetched);
      if (!checked.success) {
        this.logger.error(`The ${service} view does not fit the contract: ${checked.error.issues[0]?.message ?? 'invalid'}`);
        throw new ProviderCallError('provider_down', null, null, 'the view does not fit the contract');
      }
      snapshot = checked.data;
    } catch (error) {
      const failure = this.failureOf(error, service);
      if (failure === 'gone') {
        await this.db().deleteFrom('day_views').where('id', '=', row.id).execute();
        return 'gone';
      }
      await this.recordFailure(row.id, failure, Number(row.failures), fetcher.intervalMs, error instanceof ProviderCallError ? error.retryAfterMs : null);
      return 'failed';
    }
    await this.store(row.id, snapshot, fetcher.intervalMs, now);
    return 'stored';
  }

  private async store(rowId: string, snapshot: Snapshot, intervalMs: number, now: Date): Promise<void> {
    // A little spread so views connected at once do not stay in step.
    const next = now.getTime() + intervalMs + Math.floor(Math.random() * Math.min(intervalMs / 10, 60_000));
    await this.db()
      .updateTable('day_views')
      .set({
        view_sealed: sealSnapshot(this.ring, rowId, snapshot),
        fetched_at: now,
        checked_at: sql<Date>`now()`,
        expires_at: new Date(now.getTime() + this.config.yourDay.snapshotTtlHours * 3600_000),
        problem: null,
        failures: 0,
        next_sync_at: new Date(next),
        updated_at: sql<Date>`now()`,
      })
      // Switched off meanwhile: nothing is kept. Deleted meanwhile (disconnected): nothing comes back.
      .where('id', '=', rowId)
      .where('enabled', '=', true)
      .execute();
  }

  private async recordFailure(rowId: string, problem: DayProblem, failures: number, intervalMs: number, retryAfterMs: number | null): Promise<void> {
    const backoff = Math.min(intervalMs * 2 ** Math.min(failures, 10), MAX_BACKOFF_MS);
    const wait =
      problem === 'needs_reconnect' || problem === 'missing_scope'
        ? BLOCKED_RETRY_MS
        : problem === 'rate_limited'
          ? Math.min(Math.max(retryAfterMs ?? backoff, 60_000), MAX_BACKOFF_MS)
          : Math.max(backoff, retryAfterMs ?? 0);
    await this.db()
      .updateTable('day_views')
      .set({ problem, failures: failures + 1, checked_at: sql<Date>`now()`, next_sync_at: new Date(Date.now() + wait), updated_at: sql<Date>`now()` })
      .where('id', '=', rowId)
      .execute();
  }

  /** What a failed fetch means for the view; 'gone' when the person has no connection any more. */
  private failureOf(error: unknown, service: string): DayProblem | 'gone' {
    if (error instanceof ProviderCallError) return problemOf(error.failure, service, this.logger, error.message);
    if (error instanceof AppError) {
      // external-services' answers: not connected (404), waiting for a reconnect (409), refresh pending or failing (502).
      if (error.code === 'not_connected' || error.code === 'unknown_service') return 'gone';
      if (error.code === 'needs_reconnect') return 'needs_reconnect';
      return 'provider_down';
    }
    // A database or Redis failure: the job retries.
    if (isInfrastructureError(error)) throw error;
    this.logger.error(`The ${service} view failed: ${error instanceof Error ? error.message : String(error)}`);
    return 'provider_down';
  }

  /**
   * Switches a Hue light at the provider, then fetches the view again at once so the screen shows
   * what the bridge now says (not what we asked for).
   */
  async switchLight(userId: string, lightId: string, on: boolean): Promise<void> {
    const service: DayService = 'philipshue';
    const row = await this.db()
      .selectFrom('day_views')
      .select(['id', 'enabled'])
      .where('user_id', '=', userId)
      .where('service_name', '=', service)
      .executeTakeFirst();
    if (row && !row.enabled) throw new YourDayError(YourDayErrorCode.ViewOff, msg('yourDay.viewOff', { service: serviceDisplayName(service) }));
    // Before the token is touched (a refresh, or a bridge link, is a call of its own).
    if (!isHueResourceId(lightId)) throw new YourDayError(YourDayErrorCode.UnknownLight, msg('yourDay.unknownLight'));
    let call: ProviderCall;
    try {
      call = await this.call(userId, service);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_connected')
        throw new YourDayError(YourDayErrorCode.NotConnected, msg('yourDay.notConnected', { service: serviceDisplayName(service) }));
      if (error instanceof AppError && error.code === 'needs_reconnect')
        throw new YourDayError(YourDayErrorCode.NeedsReconnect, msg('yourDay.needsReconnect', { service: serviceDisplayName(service) }));
      if (isInfrastructureError(error)) throw error;
      throw new YourDayError(YourDayErrorCode.ProviderFailed, msg('yourDay.providerFailed', { service: serviceDisplayName(service) }));
    }
    try {
      await switchHueLight(call, lightId, on);
    } catch (error) {
      if (error instanceof ProviderCallError && error.failure === 'refused' && error.status === 404)
        throw new YourDayError(YourDayErrorCode.UnknownLight, msg('yourDay.unknownLight'));
      if (error instanceof ProviderCallError && error.failure === 'needs_reconnect')
        throw new YourDayError(YourDayErrorCode.NeedsReconnect, msg('yourDay.needsReconnect', { service: serviceDisplayName(service) }));
      this.logger.warn(`Switching a Hue light failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new YourDayError(YourDayErrorCode.ProviderFailed, msg('yourDay.providerFailed', { service: serviceDisplayName(service) }));
    }
    await this.ensureView(userId, service);
    await this.sync(userId, service);
  }

  /**
   * The sweeper's pass: every enabled view whose next fetch is due gets a job (a lease pushes
   * `next_sync_at` forward first, so overlapping passes and workers do not queue it twice), and
   * expired snapshots are deleted. Returns how many were queued.
   */
  async queueDue(): Promise<number> {
    await this.db()
      .updateTable('day_views')
      .set({ view_sealed: null, fetched_at: null, expires_at: null, updated_at: sql<Date>`now()` })
      .where('expires_at', '<', sql<Date>`now()`)
      .execute();
    let queued = 0;
    for (let pass = 0; pass < SWEEP_PASSES; pass += 1) {
      const due = await this.db()
        .updateTable('day_views')
        .set({ next_sync_at: sql<Date>`now() + ${`${SYNC_LEASE_MS} milliseconds`}::interval` })
        .where('id', 'in', (qb) =>
          qb
            .selectFrom('day_views')
            .select('id')
            .where('enabled', '=', true)
            .where('next_sync_at', '<=', sql<Date>`now()`)
            .orderBy('next_sync_at')
            .limit(SWEEP_BATCH)
            .forUpdate()
            .skipLocked(),
        )
        .returning(['user_id', 'service_name'])
        .execute();
      if (due.length === 0) break;
      await this.queue.addBulk(
        due.map((row) => ({
          name: SYNC_VIEW,
          data: { userId: row.user_id as unknown as string, service: row.service_name },
          opts: {
            jobId: daySyncJobId(row.user_id as unknown as string, row.service_name),
            removeOnComplete: true,
            removeOnFail: KEEP_FAILED,
          },
        })),
      );
      queued += due.length;
      if (due.length < SWEEP_BATCH) break;
    }
    return queued;
  }
}

/** A provider failure as the screens name it. */
export function problemOf(failure: ProviderFailure, service: string, logger?: Logger, detail?: string): DayProblem {
  if (failure === 'refused') {
    // Our request was wrong for this provider: a bug to fix, shown to the person as "not answering".
    logger?.warn(`The ${service} provider refused a view request: ${detail ?? ''}`);
    return 'provider_down';
  }
  return failure;
}

/** PostgreSQL or Redis away (the job should retry), as opposed to anything a provider did. */
function isInfrastructureError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    error.name.includes('Connection') ||
    error.name.includes('Driver') ||
    (typeof code === 'string' && (/^[0-9A-Z]{5}$/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'].includes(code)))
  );
}
