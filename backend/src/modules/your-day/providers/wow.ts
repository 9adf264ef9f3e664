import type { ViewFetcher } from './types.js';

/** wow: not written yet (issue 19). */
export const wowView: ViewFetcher = {
  service: 'wow',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
