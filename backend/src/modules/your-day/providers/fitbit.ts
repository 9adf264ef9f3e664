import type { DayItem } from '@life/contracts';
import { firstStepsDay, healthView, MAX_SLEEP_MS, MAX_STEPS, sleepItem, stepsWeek } from './health.js';
import { answerObject, idOf, record, type Json } from './untrusted-json.js';
import { dayIn, offsetMs } from './time.js';
import { ProviderCallError, type ViewFetcher } from './types.js';

/* Fitbit (Web API, https://api.fitbit.com). */

const SERVICE = 'fitbit';
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * Fitbit writes sleep times as the wall clock of the person's Fitbit profile, without an offset
 * (`2026-11-28T07:05:30.000`): the instant that wall clock shows in `timeZone`, or null when it is
 * not such a time.
 */
export function fitbitLocalTime(value: unknown, timeZone: string): Date | null {
  if (typeof value !== 'string') return null;
  const parts = LOCAL_TIME.exec(value);
  if (!parts) return null;
  const [year, month, day, hour, minute, second = '0', fraction = '0'] = parts.slice(1) as string[];
  const wall = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second, +fraction.padEnd(3, '0'));
  const check = new Date(wall);
  // 2026-02-30 or 25:00 roll over into another day: not a time Fitbit would write.
  if (check.getUTCMonth() !== +month! - 1 || check.getUTCDate() !== +day! || check.getUTCHours() !== +hour! || +minute! > 59 || +second > 59) return null;
  // Two passes settle the offset across a clock change (as time.ts's startOfDay).
  let guess = wall - offsetMs(new Date(wall), timeZone);
  guess = wall - offsetMs(new Date(guess), timeZone);
  return guess >= EARLIEST && guess < LATEST ? new Date(guess) : null;
}

/** A day's step count: Fitbit sends it as a string of digits (`"8412"`); a number is taken too. */
function stepCount(value: unknown): number | null {
  const count = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,7}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  return Number.isSafeInteger(count) && count >= 0 && count <= MAX_STEPS ? count : null;
}

/** The answer's list under `key`; an answer without it is not Fitbit's. */
function requiredList(answer: Json, key: string): unknown[] {
  if (!Array.isArray(answer[key])) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');
  return answer[key] as unknown[];
}

/**
 * Fitbit: steps per day for the 7 calendar days ending today in the person's zone
 * (`1/user/-/activities/steps/date/{today}/7d.json`), today's steps on the card, and last night's
 * sleep (`1.2/user/-/sleep/date/{today}.json`: the sleeps that ended today, the main one).
 * "today" in Fitbit's paths is the day in the Fitbit profile's zone, which may not be the
 * person's: the dates are always explicit. Scopes: `activity sleep` (the catalog asks
 * `activity heartrate sleep profile`).
 */
export const fitbitView: ViewFetcher = {
  service: SERVICE,
  // Fitbit allows 150 calls an hour per person who consented (per app and user, reset at the top
  // of the hour). A fetch is two calls: every 10 minutes is 12 an hour, under a tenth of the
  // budget, which leaves room for "Actualizar" and other calls; a tracker syncs its steps every
  // 15 minutes or so anyway. A 429 brings a Retry-After that the sync job honours.
  intervalMs: 10 * 60_000,
  async fetch(call, context) {
    const zone = context.timeZone;
    const today = dayIn(context.now, zone);
    const first = firstStepsDay(today);

    const [stepsAnswer, sleepAnswer] = await Promise.all([
      call({ path: `1/user/-/activities/steps/date/${today}/7d.json` }),
      call({ path: `1.2/user/-/sleep/date/${today}.json` }),
    ]);

    const stepsByDay = new Map<string, number>();
    for (const value of requiredList(answerObject(stepsAnswer), 'activities-steps')) {
      const entry = record(value);
      const day = typeof entry?.dateTime === 'string' ? entry.dateTime : null;
      const steps = stepCount(entry?.value);
      if (!day || steps === null || day < first || day > today || !/^\d{4}-\d{2}-\d{2}$/.test(day)) continue;
      stepsByDay.set(day, steps);
    }
    // A day Fitbit leaves out had no steps recorded.
    const week = stepsWeek(SERVICE, first, stepsByDay, context.language);
    const stepsToday = week[week.length - 1]!;

    // Last night: the main sleep among today's (a nap is not the night), else the latest one.
    let lastSleep: { item: DayItem; main: boolean; end: number } | null = null;
    for (const value of requiredList(answerObject(sleepAnswer), 'sleep')) {
      const log = record(value);
      const id = idOf(log?.logId);
      const start = fitbitLocalTime(log?.startTime, zone);
      const end = fitbitLocalTime(log?.endTime, zone);
      if (!log || !id || !start || !end || end <= start || end.getTime() - start.getTime() > MAX_SLEEP_MS) continue;
      const minutes = log.minutesAsleep;
      const main = log.isMainSleep === true;
      const asleep = typeof minutes === 'number' && Number.isSafeInteger(minutes) && minutes >= 0 && minutes <= 24 * 60 ? minutes : null;
      const candidate = {
        item: sleepItem(SERVICE, id, start, end, asleep, context.language),
        main,
        end: end.getTime(),
      };
      if (!lastSleep || (main && !lastSleep.main) || (main === lastSleep.main && candidate.end > lastSleep.end)) lastSleep = candidate;
    }

    return healthView(week, lastSleep?.item ?? null, lastSleep ? [stepsToday, lastSleep.item] : [stepsToday]);
  },
};
