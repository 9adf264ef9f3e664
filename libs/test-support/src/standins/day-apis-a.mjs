// What the "Tu día" views read from Google (Calendar, Drive, YouTube, Fit), GitHub and Spotify
// (issue 19): the providers' real endpoints and answer shapes, with data relative to the moment of
// the call (today's events, today's steps).

/**
 * @typedef {{ endpoints?: import('./services.d.mts').ApiEndpoint[], routes?: { method: string, pattern: RegExp, handle: (call: any) => unknown }[] }} DayApis
 */

/** @returns {Partial<Record<import('./services.d.mts').ServiceFamily, DayApis>>} */
export function dayApisA() {
  return {};
}
