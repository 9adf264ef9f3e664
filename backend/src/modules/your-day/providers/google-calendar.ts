import type { ViewFetcher } from './types.js';

/** googlecalendar: not written yet (issue 19). */
export const googleCalendarView: ViewFetcher = {
  service: 'googlecalendar',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
