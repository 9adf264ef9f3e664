// Time in a zone (Intl only, no library) for the "Tu día" stand-ins (day-apis-a.mjs and
// day-apis-b.mjs), whose data is relative to the moment of the request and follows the person's
// Madrid days; and the query parameter reader both use.

/** The person's zone: their calendar, their nights and their steps follow its days. */
export const HOME_ZONE = 'Europe/Madrid';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** @param {number} n @param {number} [width] */
export const pad = (n, width = 2) => String(n).padStart(width, '0');

/** @type {Map<string, Intl.DateTimeFormat>} */
const formatters = new Map();
/** The wall clock an instant shows in a zone. @param {number} ms @param {string} zone */
export function wallClock(ms, zone) {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, format);
  }
  /** @type {Record<string, number>} */
  const parts = {};
  for (const part of format.formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The zone's offset from UTC at an instant, in milliseconds. @param {number} ms @param {string} zone */
export function offsetAt(ms, zone) {
  const w = wallClock(ms, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. @param {number} ms @param {string} zone */
export function dayOf(ms, zone) {
  const w = wallClock(ms, zone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** The calendar day `n` days after `day` (n may be negative). @param {string} day @param {number} n */
export function plusDays(day, n) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + n)).toISOString().slice(0, 10);
}

/**
 * The instant of a wall-clock time (minutes after the day's midnight, may pass 24 h) on a day in a
 * zone. @param {string} day @param {number} minutes @param {string} [zone]
 */
export function instantOf(day, minutes, zone = HOME_ZONE) {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) + minutes * MINUTE;
  let guess = wall - offsetAt(wall, zone);
  guess = wall - offsetAt(guess, zone);
  return guess;
}

/** UTC, whole seconds (`2026-11-28T09:12:44Z`), as GitHub, Spotify and Bungie write times. @param {number} ms */
export const isoSeconds = (ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * A query parameter as a bounded integer, its default when absent, or undefined when invalid.
 * @param {URL} url @param {string} name @param {number} fallback @param {number} min @param {number} max
 */
export function intParam(url, name, fallback, min, max) {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}
