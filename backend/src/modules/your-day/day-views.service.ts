import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { DAY_SERVICES, isDayService, serviceDisplayName, type DayItem, type DayProblem, type DayView, type Language, type Today } from '@life/contracts';
import { sql } from 'kysely';
import { KeyRing } from '../../core/crypto/key-ring.js';
import { iso } from '../../core/database/row-values.js';
import { msg } from '../../core/i18n/messages.js';
import { PersonConnectionsQuery } from '../external-services/public/queries.js';
import { openSnapshot, type Snapshot } from './day-snapshot.js';
import { TtlCache } from './ttl-cache.js';
import { DaySyncService } from './day-sync.service.js';
import type { YourDayDb } from './entities/index.js';
import { VIEW_FETCHERS } from './providers/registry.js';
import { canonicalTimeZone, dayIn, dayRange } from './providers/time.js';
import { YourDayError, YourDayErrorCode } from './your-day.errors.js';

interface ViewRow {
  id: string;
  service_name: string;
  enabled: boolean;
  has_view: boolean;
  fetched_at: Date | string | null;
  checked_at: Date | string | null;
  expires_at: Date | string | null;
  problem: string | null;
}

/** A view with the snapshot opened: what the screens and the apps' API are built from. */
interface OpenView {
  view: DayView;
  timeline: DayItem[];
}

/**
 * The read side of "Tu día": the dashboard's views, the day's timeline and the apps'
 * `/api/v1/me/today`, all from the stored snapshots (a page view never calls a provider).
 * Views exist for the person's connected services that have one; a connected service without a
 * row yet (connected before "Tu día") gets one and a first fetch when it is first read.
 */
@Injectable()
export class DayViewsService {
  constructor(
    private readonly em: EntityManager,
    private readonly queries: QueryBus,
    private readonly ring: KeyRing,
    private readonly sync: DaySyncService,
  ) {}

  /**
   * Snapshots this process opened, by row and fetch time (a new fetch is a new key), for a minute:
   * the dashboard reads the same twelve on every visit, and opening is most of a read's cost.
   * Personal data in memory, so bounded and short-lived; a switch-off or a disconnect shows at once
   * (the row's state is read every time), only the opened JSON is reused.
   */
  private readonly snapshots = new TtlCache<Snapshot>(5000, 60_000);
  /** The zone and language this process last wrote per person. */
  private readonly remembered = new TtlCache<string>(20_000, 60_000);

  private db() {
    return this.em.getKysely<YourDayDb>();
  }

  /** Opens the snapshots of `rows` this process has not opened yet (one statement for all of them). */
  private async openMissing(rows: readonly ViewRow[]): Promise<void> {
    const missing = rows.filter((row) => row.enabled && row.has_view && !this.snapshots.has(snapshotKey(row)));
    if (missing.length === 0) return;
    const sealed = await this.db()
      .selectFrom('day_views')
      .select(['id', 'fetched_at', 'view_sealed'])
      .where(
        'id',
        'in',
        missing.map((row) => row.id),
      )
      .execute();
    for (const row of sealed) {
      if (!row.view_sealed) continue;
      const snapshot = openSnapshot(this.ring, row.id, row.view_sealed);
      if (snapshot) this.snapshots.set(snapshotKey({ id: row.id, fetched_at: row.fetched_at ?? null }), snapshot);
    }
  }

  /** A zone a client sent, as the runtime names it (400 for one it does not know): only those names are stored and used. */
  static checkZone(timeZone: string | undefined): string | undefined {
    if (timeZone === undefined) return undefined;
    const canonical = canonicalTimeZone(timeZone);
    if (!canonical) throw new YourDayError(YourDayErrorCode.InvalidTimeZone, msg('yourDay.invalidTimeZone', { zone: timeZone }));
    return canonical;
  }

  /**
   * Remembers the zone and language the person's screens use (the workers' "today", and the
   * language of the few words a view carries, such as "Pasos"); written only when they change, and
   * then every view is fetched again at the next sweep (one the provider asked us to wait for keeps
   * waiting).
   */
  async remember(userId: string, timeZone: string | undefined, language: Language): Promise<void> {
    if (!timeZone) return;
    // Every screen sends its zone on every read: most of the time nothing changed, and this process
    // wrote it itself a moment ago (another process writing something else is caught within a minute).
    const said = `${timeZone}|${language}`;
    if (this.remembered.get(userId, said)) return;
    const changed = await this.db()
      .insertInto('day_people')
      .values({ id: crypto.randomUUID(), user_id: userId, time_zone: timeZone, language, updated_at: new Date() })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ time_zone: timeZone, language, updated_at: sql<Date>`now()` })
          .where((eb) => eb.or([eb('day_people.time_zone', '!=', timeZone), eb('day_people.language', '!=', language)])),
      )
      .returning('id')
      .executeTakeFirst();
    this.remembered.set(userId, said);
    if (!changed) return;
    await this.db()
      .updateTable('day_views')
      .set({ next_sync_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('enabled', '=', true)
      .where((eb) => eb.or([eb('problem', 'is', null), eb('problem', '!=', 'rate_limited')]))
      .where('next_sync_at', '>', sql<Date>`now()`)
      .execute();
  }

  private async zoneOf(userId: string): Promise<string> {
    const person = await this.db().selectFrom('day_people').select('time_zone').where('user_id', '=', userId).executeTakeFirst();
    return person?.time_zone ?? 'UTC';
  }

  /**
   * Every view of the person's connected services with one, in the dashboard's order;
   * `only`: the services an app may see (its `service:<name>` scopes).
   */
  private async open(userId: string, only?: ReadonlySet<string>): Promise<OpenView[]> {
    // An app's read (`only` set) never makes rows or queues fetches: only the person's own screens do.
    const mayStart = only === undefined;
    const [connections, rows] = await Promise.all([
      this.queries.execute(new PersonConnectionsQuery(userId)),
      // The sealed snapshots are read (and opened) only when this process has not opened them yet.
      this.db()
        .selectFrom('day_views')
        .select(['id', 'service_name', 'enabled', 'fetched_at', 'checked_at', 'expires_at', 'problem'])
        .select((eb) => eb('view_sealed', 'is not', null).as('has_view'))
        .where('user_id', '=', userId)
        .execute() as Promise<ViewRow[]>,
    ]);
    await this.openMissing(rows);
    const status = new Map(connections.filter((c) => isDayService(c.service_name)).map((c) => [c.service_name, c.status]));
    const byService = new Map(rows.map((row) => [row.service_name, row]));
    const now = Date.now();
    const views: OpenView[] = [];
    for (const service of DAY_SERVICES) {
      const connectionStatus = status.get(service);
      if (!connectionStatus || (only && !only.has(service))) continue;
      let row = byService.get(service);
      if (!row) {
        // Connected before "Tu día" existed (or the connect event was missed): make it and fetch it now.
        if (mayStart && (await this.sync.ensureView(userId, service))) await this.sync.enqueue(userId, service);
        row = { id: '', service_name: service, enabled: true, has_view: false, fetched_at: null, checked_at: null, expires_at: null, problem: null };
      }
      const expired = row.expires_at !== null && new Date(row.expires_at).getTime() <= now;
      const snapshot = row.enabled && row.has_view && !expired ? (this.snapshots.get(snapshotKey(row)) ?? null) : null;
      const problem: DayProblem | null = connectionStatus === 'needs_reconnect' ? 'needs_reconnect' : (row.problem as DayProblem | null);
      views.push({
        view: {
          service,
          state: !row.enabled ? 'off' : snapshot ? 'ready' : 'pending',
          fetched_at: snapshot ? iso(row.fetched_at) : null,
          checked_at: row.enabled ? iso(row.checked_at) : null,
          problem: row.enabled ? problem : null,
          headline: snapshot?.headline ?? null,
          sections: snapshot?.sections ?? [],
        },
        timeline: snapshot?.timeline ?? [],
      });
    }
    return views;
  }

  async views(userId: string): Promise<DayView[]> {
    return (await this.open(userId)).map((entry) => entry.view);
  }

  async view(userId: string, service: string): Promise<DayView> {
    if (!isDayService(service)) throw new YourDayError(YourDayErrorCode.NoView, msg('yourDay.noView', { service: serviceDisplayName(service) }));
    const found = (await this.open(userId)).find((entry) => entry.view.service === service);
    if (!found) throw new YourDayError(YourDayErrorCode.NotConnected, msg('yourDay.notConnected', { service: serviceDisplayName(service) }));
    return found.view;
  }

  /**
   * Today in the zone asked (else the person's last known one, else UTC): every view's items of
   * that day, all-day ones first, then by time; `only` limits it to the services an app may see.
   */
  async today(userId: string, timeZone: string | undefined, only?: ReadonlySet<string>, now = new Date()): Promise<Today> {
    const zone = timeZone ?? (await this.zoneOf(userId));
    const date = dayIn(now, zone);
    const { start, end } = dayRange(date, zone);
    const views = await this.open(userId, only);
    const items: DayItem[] = [];
    for (const { view, timeline } of views) {
      if (view.state !== 'ready') continue;
      for (const item of timeline) if (isOnDay(item, date, start, end)) items.push(item);
    }
    items.sort(byTime);
    return {
      date,
      time_zone: zone,
      items,
      services: views
        .filter(({ view }) => view.state !== 'off')
        .map(({ view }) => ({ service: view.service, state: view.state, fetched_at: view.fetched_at, problem: view.problem })),
    };
  }

  /**
   * The person's switch for one service's view: off deletes the snapshot and stops fetching; on
   * fetches now, unless the provider asked us to wait (its `Retry-After` and the backoff survive the
   * switch, so switching off and on is no way around them).
   */
  async setEnabled(userId: string, service: string, enabled: boolean): Promise<DayView> {
    await this.view(userId, service);
    await this.sync.ensureView(userId, service);
    const changed = await this.db()
      .updateTable('day_views')
      .set(
        enabled
          ? { enabled: true, updated_at: sql<Date>`now()` }
          : { enabled: false, view_sealed: null, fetched_at: null, checked_at: null, expires_at: null, updated_at: sql<Date>`now()` },
      )
      .where('user_id', '=', userId)
      .where('service_name', '=', service)
      .where('enabled', '=', !enabled)
      .returning(['problem', 'next_sync_at'])
      .executeTakeFirst();
    if (enabled && changed && !(changed.problem === 'rate_limited' && new Date(changed.next_sync_at).getTime() > Date.now())) {
      await this.sync.enqueue(userId, service);
    }
    return this.view(userId, service);
  }

  /**
   * "Actualizar": a fetch now. Not while the provider asked us to wait (429 with its Retry-After),
   * and at most once per `minRefreshMs` of the service (a quota shared by everyone, such as YouTube's,
   * is not one person's to spend): a fetch that finished that recently answers `queued: false`.
   */
  async refresh(userId: string, service: string): Promise<{ queued: boolean }> {
    const view = await this.view(userId, service);
    if (view.state === 'off') throw new YourDayError(YourDayErrorCode.ViewOff, msg('yourDay.viewOff', { service: serviceDisplayName(service) }));
    const row = await this.db()
      .selectFrom('day_views')
      .select(['problem', 'next_sync_at', 'checked_at'])
      .where('user_id', '=', userId)
      .where('service_name', '=', service)
      .executeTakeFirst();
    const now = Date.now();
    if (row?.problem === 'rate_limited') {
      const waitMs = new Date(row.next_sync_at).getTime() - now;
      if (waitMs > 0)
        throw new YourDayError(YourDayErrorCode.ProviderAskedToWait, msg('yourDay.providerAskedToWait', { service: serviceDisplayName(service) }), {
          'retry-after': String(Math.ceil(waitMs / 1000)),
        });
    }
    if (row?.checked_at && now - new Date(row.checked_at).getTime() < minRefreshMs(service)) return { queued: false };
    await this.sync.ensureView(userId, service);
    return { queued: await this.sync.enqueue(userId, service) };
  }
}

/** The shortest time between two fetches a person asks for: a quarter of the service's interval, between 1 and 15 minutes. */
export function minRefreshMs(service: string): number {
  const interval = isDayService(service) ? VIEW_FETCHERS[service].intervalMs : 60_000;
  return Math.min(Math.max(interval / 4, 60_000), 15 * 60_000);
}

const snapshotKey = (row: { id: string; fetched_at: Date | string | null }) => `${row.id}@${iso(row.fetched_at) ?? ''}`;

/** Whether an item belongs to a calendar day: its date, its instant in the day, or a span that overlaps it. */
export function isOnDay(item: DayItem, date: string, start: Date, end: Date): boolean {
  if (item.date && !item.at) return item.date === date;
  if (!item.at) return false;
  const at = Date.parse(item.at);
  if (Number.isNaN(at)) return false;
  const parsedEnd = item.end_at ? Date.parse(item.end_at) : Number.NaN;
  const until = Number.isNaN(parsedEnd) ? at : Math.max(parsedEnd, at);
  if (until === at) return at >= start.getTime() && at < end.getTime();
  return at < end.getTime() && until > start.getTime();
}

/** All-day items first, then by time. */
export function byTime(a: DayItem, b: DayItem): number {
  const allDayA = !a.at;
  const allDayB = !b.at;
  if (allDayA !== allDayB) return allDayA ? -1 : 1;
  if (allDayA) return a.title.localeCompare(b.title);
  return Date.parse(a.at!) - Date.parse(b.at!);
}
