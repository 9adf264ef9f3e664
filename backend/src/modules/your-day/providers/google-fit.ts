import type { ViewFetcher } from './types.js';

/** googlefit: not written yet (issue 19). */
export const googleFitView: ViewFetcher = {
  service: 'googlefit',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
