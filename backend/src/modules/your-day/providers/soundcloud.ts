import type { ViewFetcher } from './types.js';

/** soundcloud: not written yet (issue 19). */
export const soundcloudView: ViewFetcher = {
  service: 'soundcloud',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
