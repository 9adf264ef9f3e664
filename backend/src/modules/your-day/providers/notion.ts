import type { ViewFetcher } from './types.js';

/** notion: not written yet (issue 19). */
export const notionView: ViewFetcher = {
  service: 'notion',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
