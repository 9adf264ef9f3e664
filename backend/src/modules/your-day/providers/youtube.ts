import type { ViewFetcher } from './types.js';

/** youtube: not written yet (issue 19). */
export const youtubeView: ViewFetcher = {
  service: 'youtube',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
