import type { DayItem } from '@life/contracts';
import { firstStepsDay, healthView, MAX_SLEEP_MS, MAX_STEPS, sleepItem, stepsWeek } from './health.js';
import { answerObject, idOf, list, millis, record } from './untrusted-json.js';
import { addDays, dayIn, dayRange, startOfDay } from './time.js';
import type { ViewFetcher } from './types.js';

/* Google Fit (Fitness REST API v1, https://www.googleapis.com/fitness/v1). */

const SERVICE = 'googlefit';
const DAY_MS = 86_400_000;
const STEP_COUNT = 'com.google.step_count.delta';
/** Sleep, in Fit's activity types. */
const SLEEP = 72;

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
    const first = firstStepsDay(today);
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
    const week = stepsWeek(SERVICE, first, stepsByDay, context.language);
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
      lastSleep = sleepItem(SERVICE, id, new Date(start), new Date(end), Math.round((end - start) / 60_000), context.language);
    }

    const timeline = [stepsToday];
    // Last night: a sleep that ended today.
    if (lastSleep && dayIn(new Date(lastEnd), zone) === today) timeline.push(lastSleep);
    return healthView(week, lastSleep, timeline);
  },
};
