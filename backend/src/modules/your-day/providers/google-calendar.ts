import type { DayItem } from '@life/contracts';
import { answerObject, calendarDay, dayItem, httpsUrl, idOf, instantMs, list, record, text } from './untrusted-json.js';
import { addDays, dayIn, dayRange, startOfDay } from './time.js';
import type { ViewContext, ViewFetcher } from './types.js';

/* Google Calendar (API v3, https://www.googleapis.com/calendar/v3). */

const SERVICE = 'googlecalendar';
const MAX_RESULTS = 50;

/** An event as read: timed (instants) or all-day (dates, the end exclusive). */
type Span = { kind: 'timed'; start: number; end: number } | { kind: 'allDay'; first: string; endExclusive: string };

interface CalendarEvent {
  id: string;
  title: string;
  subtitle: string | null;
  url: string | null;
  span: Span;
}

function readEvent(value: unknown): CalendarEvent | null {
  const event = record(value);
  const id = idOf(event?.id);
  if (!event || !id || event.status === 'cancelled') return null;
  const start = record(event.start);
  const end = record(event.end);
  let span: Span;
  const startMs = instantMs(start?.dateTime);
  if (startMs !== null) {
    const endMs = instantMs(end?.dateTime);
    span = { kind: 'timed', start: startMs, end: endMs !== null && endMs >= startMs ? endMs : startMs };
  } else {
    const first = calendarDay(start?.date);
    if (!first) return null;
    const last = calendarDay(end?.date);
    span = { kind: 'allDay', first, endExclusive: last && last > first ? last : addDays(first, 1) };
  }
  return {
    id,
    // An event without a title: the screens show it as it comes (Google's own apps say "(No title)").
    title: text(event.summary) ?? '',
    subtitle: text(event.location) || null,
    url: httpsUrl(event.htmlLink),
    span,
  };
}

/** The event's item on a calendar day, or null when it does not touch that day. */
function onDay(event: CalendarEvent, day: string, context: ViewContext): DayItem | null {
  const base = { id: event.id, service: SERVICE, kind: 'event' as const, title: event.title, subtitle: event.subtitle, url: event.url };
  if (event.span.kind === 'allDay') {
    return event.span.first <= day && day < event.span.endExclusive ? dayItem({ ...base, date: day }) : null;
  }
  const { start, end } = event.span;
  const range = dayRange(day, context.timeZone);
  const touches = start === end ? start >= range.start.getTime() && start < range.end.getTime() : start < range.end.getTime() && end > range.start.getTime();
  if (!touches) return null;
  const now = context.now.getTime();
  return dayItem({
    ...base,
    at: new Date(start).toISOString(),
    end_at: new Date(end).toISOString(),
    live: start <= now && now < end,
  });
}

/** All-day events first, then by start. */
const byStart = (a: DayItem, b: DayItem) => (a.at ? 1 : 0) - (b.at ? 1 : 0) || (a.at && b.at ? Date.parse(a.at) - Date.parse(b.at) : 0);

/**
 * Google Calendar: today's and tomorrow's events of the primary calendar in the person's zone
 * (`calendars/primary/events`, recurring events expanded). Scope: `calendar.readonly`.
 */
export const googleCalendarView: ViewFetcher = {
  service: SERVICE,
  // Calendar's quota is per project (1,000,000 queries a day, shared by every person) and per
  // user per minute. A fetch is one call: every 15 minutes is 96 calls a person a day, ~10,000
  // people within the default daily quota; the screens work out "happening now" from the times.
  intervalMs: 15 * 60_000,
  async fetch(call, context) {
    const today = dayIn(context.now, context.timeZone);
    const tomorrow = addDays(today, 1);
    const answer = answerObject(
      await call({
        path: 'calendar/v3/calendars/primary/events',
        query: {
          timeMin: startOfDay(today, context.timeZone).toISOString(),
          timeMax: startOfDay(addDays(today, 2), context.timeZone).toISOString(),
          singleEvents: 'true',
          orderBy: 'startTime',
          maxResults: String(MAX_RESULTS),
          timeZone: context.timeZone,
        },
      }),
    );
    const events = list(answer.items)
      .slice(0, MAX_RESULTS)
      .map(readEvent)
      .filter((event): event is CalendarEvent => event !== null);
    const seen = new Set<string>();
    const unique = events.filter((event) => !seen.has(event.id) && !!seen.add(event.id));
    const todayItems = unique.map((event) => onDay(event, today, context)).filter((item): item is DayItem => item !== null);
    const tomorrowItems = unique.map((event) => onDay(event, tomorrow, context)).filter((item): item is DayItem => item !== null);
    todayItems.sort(byStart);
    tomorrowItems.sort(byStart);

    // The card's line: what is on now, else the next timed event today.
    const now = context.now.getTime();
    const headline = todayItems.find((item) => item.at && item.end_at && Date.parse(item.end_at) > now) ?? null;

    return {
      headline,
      sections: [
        { key: 'today', items: todayItems },
        { key: 'tomorrow', items: tomorrowItems },
      ],
      timeline: todayItems,
    };
  },
};
