import type { ViewFetcher } from './types.js';

/** github: not written yet (issue 19). */
export const githubView: ViewFetcher = {
  service: 'github',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
