import type { DayItem } from '@life/contracts';
import { dayItem, inLanguage } from './untrusted-json.js';
import { addDays } from './time.js';
import type { FetchedView } from './types.js';

/*
 * What the health views (Fitbit, Google Fit) share: the week of steps ending today in the person's
 * zone, today's steps on the card, and last night's sleep.
 */

/** The steps chart's days: the 7 calendar days ending today. */
export const STEPS_DAYS = 7;
/** More steps than this in a day (or an aggregate bucket) is a provider's mistake. */
export const MAX_STEPS = 1_000_000;
/** A "sleep" longer than this is a tracker left running, not a night. */
export const MAX_SLEEP_MS = 24 * 60 * 60 * 1000;

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

/** The first day of the steps chart whose last day is `today`. */
export const firstStepsDay = (today: string): string => addDays(today, -(STEPS_DAYS - 1));

/** One item a day from `first` for 7 days, oldest first; a day without a count had no steps recorded. */
export function stepsWeek(service: string, first: string, stepsByDay: ReadonlyMap<string, number>, language: string): DayItem[] {
  const title = inLanguage(STEPS, language);
  const week: DayItem[] = [];
  for (let n = 0; n < STEPS_DAYS; n += 1) {
    const day = addDays(first, n);
    week.push(dayItem({ id: `steps-${day}`, service, kind: 'steps', title, date: day, value: stepsByDay.get(day) ?? 0 }));
  }
  return week;
}

/** A night's sleep from `start` to `end`, its minutes (asleep, or in bed) as the value. */
export function sleepItem(service: string, id: string, start: Date, end: Date, minutes: number | null, language: string): DayItem {
  return dayItem({
    id,
    service,
    kind: 'sleep',
    title: inLanguage(SLEPT, language),
    at: start.toISOString(),
    end_at: end.toISOString(),
    value: minutes,
  });
}

/** The view: today's steps (the week's last day) as the headline, the week and last night's sleep; `timeline` as the fetcher chose it. */
export function healthView(week: DayItem[], lastSleep: DayItem | null, timeline: DayItem[]): FetchedView {
  return {
    headline: week[week.length - 1]!,
    sections: [
      { key: 'steps_week', items: week },
      { key: 'last_sleep', items: lastSleep ? [lastSleep] : [] },
    ],
    timeline,
  };
}
