import type { DayItem } from '@life/contracts';
import { dayIn } from './time.js';
import { ProviderCallError, type ViewContext } from './types.js';

/*
 * Reading a provider's JSON, which is untrusted: every field may be missing, of another type or
 * huge. These helpers never throw on a bad value; they answer null (or an empty list) and the
 * fetcher skips the item. Shared by every view fetcher.
 */

export type Json = Record<string, unknown>;

/** Titles and second lines are cut here. */
export const MAX_TITLE = 300;

/** A JSON object (not null, not an array), else null. */
export function record(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

/** The provider's whole answer, which must be an object: anything else means it is not answering as it should. */
export function answerObject(value: unknown): Json {
  const found = record(value);
  if (!found) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');
  return found;
}

/** An array, else an empty one. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

// eslint-disable-next-line no-control-regex -- removing them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
/** Zero-width spaces and marks, bidirectional embeddings, overrides and isolates, word joiners (not U+200D, which joins emoji). */
const INVISIBLE = /[\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** A string, trimmed and cut at `max` characters (never in the middle of a surrogate pair), else null. */
export function text(value: unknown, max = MAX_TITLE): string | null {
  if (typeof value !== 'string') return null;
  let cut = value.length > max * 4 ? value.slice(0, max * 4) : value;
  // Control characters become spaces; bidirectional overrides and isolates, and zero-width
  // characters, go: a title someone else wrote (a shared file, an invitation) cannot reorder what
  // the screen shows around it (a file named so that "exe.pdf" reads backwards).
  cut = cut.replace(CONTROL, ' ').replace(INVISIBLE, '').trim();
  if (cut.length > max) {
    cut = cut.slice(0, max);
    const last = cut.charCodeAt(cut.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  }
  return cut;
}

/** A provider's id (a non-empty string of at most 200 characters, or an integer), as a string, else null. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value.length > 0 && value.length <= 200 ? value : null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return null;
}

/** An `https:` link without credentials, else null (the screens open it at the provider). */
export function httpsUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password ? url.href : null;
  } catch {
    return null;
  }
}

/** Earliest and latest instants believed: anything outside is a provider's mistake. */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/** Milliseconds since the epoch from a number or a string of digits (Google's int64 fields), else null. */
export function millis(value: unknown): number | null {
  const ms = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(ms) && ms >= EARLIEST && ms < LATEST ? ms : null;
}

/** An instant from an ISO 8601 string, as milliseconds, else null. */
export function instantMs(value: unknown): number | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= EARLIEST && ms < LATEST ? ms : null;
}

/** An instant from an ISO 8601 string, normalised (UTC, milliseconds), else null. */
export function instant(value: unknown): string | null {
  const ms = instantMs(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** A calendar day (YYYY-MM-DD) that exists, else null. */
export function calendarDay(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value ? value : null;
}

/** A DayItem with every field filled: null where not used, `live` false. */
export function dayItem(fields: Pick<DayItem, 'id' | 'service' | 'kind' | 'title'> & Partial<DayItem>): DayItem {
  return {
    subtitle: null,
    url: null,
    at: null,
    end_at: null,
    date: null,
    value: null,
    code: null,
    on: null,
    live: false,
    ...fields,
  };
}

/** The items of today in the person's zone: an instant on today, or today's date. */
export function onToday(items: readonly DayItem[], context: ViewContext): DayItem[] {
  const today = dayIn(context.now, context.timeZone);
  return items.filter((item) => (item.at ? dayIn(new Date(item.at), context.timeZone) === today : item.date === today));
}

/** A word in the person's language (English when there is none in it). */
export function inLanguage(words: Record<string, string> & { en: string }, language: string): string {
  return words[language.toLowerCase().split('-')[0] ?? 'en'] ?? words.en;
}
