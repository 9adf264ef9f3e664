import { DAY_SECTION_KEYS, type DayItem } from '@life/contracts';
import { CATALOG_FAMILY_ROWS, startServiceStandIns, type ServiceFamily, type ServiceStandIn } from '@life/test-support/standins/services';
import { SnapshotSchema } from '../../src/modules/your-day/day-snapshot.js';
import { providerCall, type CallCredentials } from '../../src/modules/your-day/providers/provider-call.js';
import { dayIn } from '../../src/modules/your-day/providers/time.js';
import type { FetchedView, ProviderCall, ProviderRequest, ViewContext } from '../../src/modules/your-day/providers/types.js';

export interface DayStandIn {
  standIn: ServiceStandIn;
  credentials: CallCredentials;
  /** A ProviderCall on a live token of the stand-in, as the sync job builds it. */
  call: ProviderCall;
  close(): Promise<void>;
}

/**
 * One service's stand-in (its family's, serving every catalog row of the family) and a ProviderCall
 * with a token it accepts, the row's API base, scheme and headers: what the sync job passes a view
 * fetcher. Hue's bridge is linked first (its application key travels as hue-application-key);
 * Battle.net's region is `eu`.
 */
export async function startDayStandIn(family: ServiceFamily, serviceName: string): Promise<DayStandIn> {
  const standIns = await startServiceStandIns({
    families: [family],
    rowsByFamily: CATALOG_FAMILY_ROWS,
    overrides: { [family]: { acceptAnyAccessToken: true } },
  });
  const standIn = standIns[family]!;
  const row = standIns.rows[serviceName];
  if (!row) throw new Error(`the ${family} stand-in serves no ${serviceName} row`);
  const accessToken = `day-token-${serviceName}`;
  const headers: Record<string, string> = { ...row.extra_headers };
  if (row.api_key_header) headers[row.api_key_header] = row.api_key;
  let baseUrl = row.base_url;
  let query: Record<string, string> | undefined;
  if (family === 'battlenet') {
    baseUrl = baseUrl.replace('{region}', 'eu');
    query = { namespace: 'profile-eu' };
  }
  if (family === 'hue') {
    const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    await fetch(`${standIn.url}/route/api/0/config`, { method: 'PUT', headers: auth, body: JSON.stringify({ linkbutton: true }) });
    const linked = (await (
      await fetch(`${standIn.url}/route/api`, { method: 'POST', headers: auth, body: JSON.stringify({ devicetype: 'life#test' }) })
    ).json()) as {
      success?: { username: string };
    }[];
    headers['hue-application-key'] = linked[0]!.success!.username;
  }
  const credentials: CallCredentials = { baseUrl, accessToken, scheme: family === 'soundcloud' ? 'OAuth' : 'Bearer', headers, query };
  return { standIn, credentials, call: providerCall(credentials), close: () => standIns.close() };
}

/**
 * startDayStandIn before the tests of the enclosing `describe` and closed after them: the returned
 * object is filled in by its `beforeAll` (use it inside the tests and hooks, not while declaring them).
 */
export function useDayStandIn(family: ServiceFamily, serviceName: string): DayStandIn {
  const day = {} as DayStandIn;
  beforeAll(async () => {
    Object.assign(day, await startDayStandIn(family, serviceName));
  });
  afterAll(() => day.close());
  return day;
}

/** A fetcher's context: now, in Madrid, in Spanish unless told. */
export const dayContext = (overrides: Partial<ViewContext> = {}): ViewContext => ({ now: new Date(), timeZone: 'Europe/Madrid', language: 'es', ...overrides });

/* What the view fetchers' tests check and build (your-day-fetchers-a and -b). */

/**
 * The view fits the contract (what the sync job checks before keeping it), every item is the
 * service's, titled (unless `emptyTitles`: a calendar event without a title stays untitled for the
 * screen to show as such), titles and second lines are at most 300 characters, ids are unique per
 * section and links are https.
 */
export function expectValid(view: FetchedView, service: string, { emptyTitles = false }: { emptyTitles?: boolean } = {}) {
  const checked = SnapshotSchema.safeParse(view);
  if (!checked.success) throw new Error(JSON.stringify(checked.error.issues.slice(0, 3)));
  const items = [...(view.headline ? [view.headline] : []), ...view.sections.flatMap((s) => s.items), ...view.timeline];
  for (const item of items) {
    expect(item.service).toBe(service);
    if (!emptyTitles) expect(item.title.length).toBeGreaterThan(0);
    expect(item.title.length).toBeLessThanOrEqual(300);
    if (item.subtitle !== null) expect(item.subtitle.length).toBeLessThanOrEqual(300);
    if (item.url !== null) expect(item.url).toMatch(/^https:\/\//);
  }
  for (const section of view.sections) {
    expect(DAY_SECTION_KEYS).toContain(section.key);
    expect(new Set(section.items.map((i) => i.id)).size).toBe(section.items.length);
  }
}

/** The items of the view's section `key` (which must be there). */
export const section = (view: FetchedView, key: string): DayItem[] => {
  const found = view.sections.find((s) => s.key === key);
  if (!found) throw new Error(`no section ${key} in ${view.sections.map((s) => s.key).join(', ')}`);
  return found.items;
};
export const titles = (items: DayItem[]) => items.map((i) => i.title);
export const ids = (items: DayItem[]) => items.map((i) => i.id);
export const ms = (iso: string | null) => Date.parse(iso!);

/** The items whose instant (or date) is on today in the context's zone, as the fetcher should pick them. */
export const onTodayIn = (items: DayItem[], context: ViewContext) =>
  items.filter((i) => (i.at ? dayIn(new Date(i.at), context.timeZone) : i.date) === dayIn(context.now, context.timeZone));

/** An instant's wall clock in a zone, as `YYYY-MM-DDTHH:MM:SS` (Intl, independent of the fetchers' arithmetic). */
export function wallIn(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** A ProviderCall answered by a function of the request (recorded), for exact data and times and broken answers. */
export function fakeCall(answer: (request: ProviderRequest) => unknown): ProviderCall & { requests: ProviderRequest[] } {
  const requests: ProviderRequest[] = [];
  const call = async (request: ProviderRequest) => {
    requests.push(request);
    return answer(request);
  };
  return Object.assign(call, { requests });
}
