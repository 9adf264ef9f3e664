import type { ViewFetcher } from './types.js';

/** googledrive: not written yet (issue 19). */
export const googleDriveView: ViewFetcher = {
  service: 'googledrive',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};
