/** Calendar days in a time zone, for "today" and "the last 7 days" of the person's zone (Intl only, no library). */

/** One formatter per zone; only canonical names reach it (`canonicalTimeZone`), and it is bounded anyway. */
const partsFormatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 1000;
function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = partsFormatters.get(timeZone);
  if (!found) {
    if (partsFormatters.size >= MAX_FORMATTERS) partsFormatters.clear();
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(timeZone, found);
  }
  return found;
}

function wallClock(instant: Date, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { year: +parts.year!, month: +parts.month!, day: +parts.day!, hour: +parts.hour!, minute: +parts.minute!, second: +parts.second! };
}

/**
 * The runtime's own name of a zone (`eUrOpE/mAdRiD` → `Europe/Madrid`, `US/Pacific` →
 * `America/Los_Angeles`; browsers' `Asia/Calcutta` stays as ICU names it), or null for one it does
 * not know. Only these names are stored, cached or sent to a provider: there are a few hundred of
 * them, so a client cannot make a new cache entry per spelling.
 */
export function canonicalTimeZone(timeZone: string): string | null {
  if (!timeZone) return null;
  const known = canonicalNames.get(timeZone);
  if (known !== undefined) return known;
  let canonical: string | null;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    canonical = null;
  }
  // Every read asks (the screens send their zone each time); the spellings kept are bounded.
  if (canonicalNames.size >= MAX_FORMATTERS) canonicalNames.clear();
  canonicalNames.set(timeZone, canonical);
  return canonical;
}
const canonicalNames = new Map<string, string | null>();

/** Whether the runtime knows this IANA zone (in any spelling it accepts). */
export function isTimeZone(timeZone: string): boolean {
  return canonicalTimeZone(timeZone) !== null;
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayIn(instant: Date, timeZone: string): string {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The zone's offset from UTC at an instant, in milliseconds (Madrid in winter: +3,600,000). */
export function offsetMs(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a calendar day starts in a zone (midnight, or the first moment after a DST gap). */
export function startOfDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(year, month - 1, date);
  // Two passes settle the offset across a DST change.
  let guess = midnightUtc - offsetMs(new Date(midnightUtc), timeZone);
  guess = midnightUtc - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** The calendar day `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + n)).toISOString().slice(0, 10);
}

/** The instants [start, end) of a calendar day in a zone. */
export function dayRange(day: string, timeZone: string): { start: Date; end: Date } {
  return { start: startOfDay(day, timeZone), end: startOfDay(addDays(day, 1), timeZone) };
}
