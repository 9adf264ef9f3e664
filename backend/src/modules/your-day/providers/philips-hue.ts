import type { ViewFetcher } from './types.js';

/** philipshue: not written yet (issue 19). */
export const philipsHueView: ViewFetcher = {
  service: 'philipshue',
  intervalMs: 15 * 60_000,
  fetch() {
    return Promise.resolve({ headline: null, sections: [], timeline: [] });
  },
};

/** Switches one light at the provider (CLIP v2); throws a ProviderCallError when refused. */
export async function switchHueLight(call: import('./types.js').ProviderCall, lightId: string, on: boolean): Promise<void> {
  await call({ method: 'PUT', path: `route/clip/v2/resource/light/${encodeURIComponent(lightId)}`, body: { on: { on } } });
}
