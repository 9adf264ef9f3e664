import type { ViewFetcher } from './types.js';

/** destiny2: not written yet (issue 19). */
export const destiny2View: ViewFetcher = {
  service: 'destiny2',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
