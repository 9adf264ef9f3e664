import type { DayItem, DayItemKind } from '@life/contracts';
import type { TFunction } from 'i18next';
import {
  CalendarDays,
  CircleDot,
  FileText,
  Footprints,
  GitCommitHorizontal,
  GitPullRequest,
  Heart,
  Lightbulb,
  Moon,
  Music,
  NotebookText,
  Shield,
  SquarePlay,
  Swords,
  type LucideIcon,
} from 'lucide-react';
import { formatDate, formatNumber, formatRelativeTime, formatTime } from '@/lib/format';

/** One icon per kind of item (its words: `yourDay.kinds.<kind>`). */
export const KIND_ICONS: Record<DayItemKind, LucideIcon> = {
  track: Music,
  event: CalendarDays,
  push: GitCommitHorizontal,
  pull_request: GitPullRequest,
  issue: CircleDot,
  file: FileText,
  video: SquarePlay,
  steps: Footprints,
  sleep: Moon,
  page: NotebookText,
  like: Heart,
  light: Lightbulb,
  character: Swords,
  guardian: Shield,
};

const HOUR_MINUTE: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const DAY_MONTH_TIME: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' };

/** A calendar day of the API (YYYY-MM-DD) as that day, whatever the browser's zone. */
function calendarDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** "sábado, 28 de noviembre": a day heading. */
export function formatDayHeading(date: string): string {
  return formatDate(calendarDay(date), { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
}

/** "sáb 28": a day in a short list (the steps chart). */
export function formatShortDay(date: string): string {
  return formatDate(calendarDay(date), { weekday: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** "10:30". */
export function formatClock(instant: string): string {
  return formatTime(instant, HOUR_MINUTE);
}

function sameLocalDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** When something happened, in the person's zone: the time alone today ("10:30"), else with its day ("27 nov, 10:30"). */
export function formatWhen(instant: string, now: number): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return instant;
  return sameLocalDay(date, new Date(now)) ? formatTime(date, HOUR_MINUTE) : formatTime(date, DAY_MONTH_TIME);
}

/** "7 h 32 min" from minutes, with the language's unit words. */
export function formatDuration(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(formatNumber(hours, { style: 'unit', unit: 'hour', unitDisplay: 'short' }));
  if (rest > 0 || hours === 0) parts.push(formatNumber(rest, { style: 'unit', unit: 'minute', unitDisplay: 'short' }));
  return parts.join(' ');
}

/** "hace 3 min", "ahora", "hace 2 h", "ayer": how long ago an instant was. */
export function formatAgo(instant: string, now: number): string {
  const seconds = Math.round((new Date(instant).getTime() - now) / 1000);
  if (Number.isNaN(seconds)) return instant;
  const options: Intl.RelativeTimeFormatOptions = { numeric: 'auto', style: 'short' };
  const past = Math.min(seconds, 0);
  if (past > -45) return formatRelativeTime(0, 'second', options);
  if (past > -3600) return formatRelativeTime(Math.round(past / 60), 'minute', options);
  if (past > -86_400) return formatRelativeTime(Math.round(past / 3600), 'hour', options);
  return formatRelativeTime(Math.round(past / 86_400), 'day', options);
}

/** A WoW or Destiny class, a file's kind: the translated word, or the code as it came when we have none. */
export function codeLabel(t: TFunction, group: 'wowClasses' | 'destinyClasses' | 'fileKinds', code: string | null): string | null {
  if (!code) return null;
  // `death_knight`, `death-knight` and `Death Knight` are one class.
  const key = code
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const readable = code.replace(/[_-]+/g, ' ');
  return t(`yourDay.${group}.${key}`, { defaultValue: readable.charAt(0).toUpperCase() + readable.slice(1) });
}

/**
 * The one line a card shows for its view's headline: "Sonando ahora: …", "8.412 pasos hoy",
 * "Dormiste 7 h 32 min", "10:00 · Reunión"...
 */
export function headlineText(t: TFunction, item: DayItem): string {
  const { title } = item;
  switch (item.kind) {
    case 'track':
      return item.live ? t('yourDay.headline.nowPlaying', { title }) : t('yourDay.headline.lastPlayed', { title });
    case 'steps':
      return item.value === null ? title : t('yourDay.headline.stepsToday', { count: item.value, steps: formatNumber(item.value) });
    case 'sleep':
      return item.value === null ? title : t('yourDay.headline.slept', { duration: formatDuration(item.value) });
    case 'event':
      if (item.live) return t('yourDay.headline.eventNow', { title });
      if (item.at) return t('yourDay.headline.eventAt', { time: formatClock(item.at), title });
      return title;
    case 'light':
      // Hue's summary ("1 de 2 luces encendidas", in the person's language) says it all; a single light says its state.
      if (item.code === 'lights_on') return title;
      return t(item.on ? 'yourDay.headline.lightOn' : 'yourDay.headline.lightOff', { title });
    case 'character':
      return item.value === null ? title : t('yourDay.headline.character', { title, level: formatNumber(item.value) });
    case 'guardian': {
      const className = codeLabel(t, 'destinyClasses', item.code) ?? title;
      return item.value === null ? className : t('yourDay.headline.guardian', { className, light: formatNumber(item.value) });
    }
    default:
      return title;
  }
}

/**
 * Today's items in time order, all-day ones (a date, no time) first; the server sends them so, and
 * this keeps the page right if it ever does not. Stable: equal times keep their order.
 */
export function inTimeOrder(items: readonly DayItem[]): DayItem[] {
  const key = (item: DayItem) => (item.at ? new Date(item.at).getTime() : Number.NEGATIVE_INFINITY);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => key(a.item) - key(b.item) || a.index - b.index)
    .map(({ item }) => item);
}
