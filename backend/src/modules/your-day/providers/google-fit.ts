import type { DayItem } from '@life/contracts';
import { answerObject, dayItem, idOf, inLanguage, list, millis, record } from './untrusted-json.js';
import { addDays, dayIn, dayRange, startOfDay } from './time.js';
import type { ViewFetcher } from './types.js';

/* Google Fit (Fitness REST API v1, https://www.googleapis.com/fitness/v1). */

const SERVICE = 'googlefit';
const DAYS = 7;
const DAY_MS = 86_400_000;
const STEP_COUNT = 'com.google.step_count.delta';
/** Sleep, in Fit's activity types. */
const SLEEP = 72;
/** A "sleep" longer than this is a tracker left running, not a night. */
const MAX_SLEEP_MS = 24 * 60 * 60 * 1000;
/** More steps than this in a bucket is a provider's mistake. */
const MAX_STEPS = 1_000_000;

const STEPS: Record<string, string> & { en: string } = {
  en: 'Steps',
  es: 'Pasos',
  de: 'Schritte',
  fr: 'Pas',
  it: 'Passi',
  pt: 'Passos',
  ja: '歩数',
  zh: '步数',
};
const SLEPT: Record<string, string> & { en: string } = {
  en: 'Sleep',
  es: 'Sueño',
  de: 'Schlaf',
  fr: 'Sommeil',
  it: 'Sonno',
  pt: 'Sono',
  ja: '睡眠',
  zh: '睡眠',
};

/** The steps of one aggregate bucket: the sum of its step points' integer values (bad values count as none). */
function bucketSteps(bucket: Record<string, unknown>): number {
  let steps = 0;
  for (const dataset of list(bucket.dataset)) {
    for (const value of list(record(dataset)?.point)) {
      const point = record(value);
      if (point?.dataTypeName !== undefined && point.dataTypeName !== STEP_COUNT) continue;
      for (const field of list(point?.value)) {
        const count = record(field)?.intVal;
        if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 && count <= MAX_STEPS) steps += count;
      }
    }
  }
  return steps;
}

/**
 * Google Fit: steps per day for the last 7 calendar days in the person's zone
 * (`dataset:aggregate`, buckets of a day), today's steps on the card, and last night's sleep
 * (`sessions` of activity type 72). Scopes: `fitness.activity.read fitness.sleep.read`.
 */
export const googleFitView: ViewFetcher = {
  service: SERVICE,
  // The Fitness API's quota is per project and per user per minute, shared by every person; a
  // fetch is two calls. Steps climb all day, but a quarter of an hour behind is fine for a card
  // and a week's chart. (Fit is being wound down by Google: the catalog row is in maintenance.)
  intervalMs: 15 * 60_000,
  async fetch(call, context) {
    const zone = context.timeZone;
    const today = dayIn(context.now, zone);
    const first = addDays(today, -(DAYS - 1));
    const windowStart = startOfDay(first, zone).getTime();
    const windowEnd = dayRange(today, zone).end.getTime();
    const sleepFrom = startOfDay(addDays(today, -1), zone);

    const [aggregateAnswer, sessionsAnswer] = await Promise.all([
      call({
        method: 'POST',
        path: 'fitness/v1/users/me/dataset:aggregate',
        body: {
          aggregateBy: [{ dataTypeName: STEP_COUNT }],
          bucketByTime: { durationMillis: DAY_MS },
          startTimeMillis: windowStart,
          endTimeMillis: windowEnd,
        },
      }),
      // Sessions that ended from yesterday's start until now: last night's is the latest.
      call({
        path: 'fitness/v1/users/me/sessions',
        query: { activityType: String(SLEEP), startTime: sleepFrom.toISOString(), endTime: context.now.toISOString() },
      }),
    ]);

    // Buckets are 24 hours from the window's start; across a clock change they drift by an hour,
    // so each bucket counts for the day its middle falls on (a 25-hour day's last hour adds to it).
    const stepsByDay = new Map<string, number>();
    for (const value of list(answerObject(aggregateAnswer).bucket)) {
      const bucket = record(value);
      const start = millis(bucket?.startTimeMillis);
      const end = millis(bucket?.endTimeMillis);
      if (!bucket || start === null || end === null || end < start) continue;
      const day = dayIn(new Date(start + (end - start) / 2), zone);
      if (day < first || day > today) continue;
      stepsByDay.set(day, (stepsByDay.get(day) ?? 0) + bucketSteps(bucket));
    }
    const title = inLanguage(STEPS, context.language);
    const week: DayItem[] = [];
    for (let n = 0; n < DAYS; n += 1) {
      const day = addDays(first, n);
      week.push(dayItem({ id: `steps-${day}`, service: SERVICE, kind: 'steps', title, date: day, value: stepsByDay.get(day) ?? 0 }));
    }
    const stepsToday = week[week.length - 1]!;

    let lastSleep: DayItem | null = null;
    let lastEnd = 0;
    for (const value of list(answerObject(sessionsAnswer).session)) {
      const session = record(value);
      const id = idOf(session?.id);
      const start = millis(session?.startTimeMillis);
      const end = millis(session?.endTimeMillis);
      if (!session || !id || start === null || end === null) continue;
      if (session.activityType !== undefined && session.activityType !== SLEEP) continue;
      if (end <= start || end - start > MAX_SLEEP_MS || end > context.now.getTime() || end <= lastEnd) continue;
      lastEnd = end;
      lastSleep = dayItem({
        id,
        service: SERVICE,
        kind: 'sleep',
        title: inLanguage(SLEPT, context.language),
        at: new Date(start).toISOString(),
        end_at: new Date(end).toISOString(),
        value: Math.round((end - start) / 60_000),
      });
    }

    const timeline = [stepsToday];
    // Last night: a sleep that ended today.
    if (lastSleep && dayIn(new Date(lastEnd), zone) === today) timeline.push(lastSleep);
    return {
      headline: stepsToday,
      sections: [
        { key: 'steps_week', items: week },
        { key: 'last_sleep', items: lastSleep ? [lastSleep] : [] },
      ],
      timeline,
    };
  },
};
