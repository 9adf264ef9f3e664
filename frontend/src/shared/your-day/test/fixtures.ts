import type { DayItem, DaySection, DayView } from '@life/contracts';

/** One item as the your-day API answers it: a track played, unless `overrides` say otherwise. */
export function dayItem(overrides: Partial<DayItem> = {}): DayItem {
  return {
    id: 'item-1',
    service: 'spotify',
    kind: 'track',
    title: 'Bohemian Rhapsody',
    subtitle: 'Queen',
    url: null,
    at: null,
    end_at: null,
    date: null,
    value: null,
    code: null,
    on: null,
    live: false,
    ...overrides,
  };
}

export function daySection(key: DaySection['key'], items: DayItem[]): DaySection {
  return { key, items };
}

/** A ready view fetched three minutes ago, with no problem. */
export function dayView(overrides: Partial<DayView> = {}): DayView {
  return {
    service: 'spotify',
    state: 'ready',
    fetched_at: new Date(Date.now() - 3 * 60_000).toISOString(),
    checked_at: new Date(Date.now() - 3 * 60_000).toISOString(),
    problem: null,
    headline: null,
    sections: [],
    ...overrides,
  };
}
