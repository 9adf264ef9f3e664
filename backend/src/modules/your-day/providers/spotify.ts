import type { ViewFetcher } from './types.js';

/** spotify: not written yet (issue 19). */
export const spotifyView: ViewFetcher = {
  service: 'spotify',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
