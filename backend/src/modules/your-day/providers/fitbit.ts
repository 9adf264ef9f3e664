import type { ViewFetcher } from './types.js';

/** fitbit: not written yet (issue 19). */
export const fitbitView: ViewFetcher = {
  service: 'fitbit',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
