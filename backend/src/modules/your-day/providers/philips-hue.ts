import type { DayItem } from '@life/contracts';
import { answerObject, dayItem, idOf, inLanguage, list, record, text, type Json } from './untrusted-json.js';
import { ProviderCallError, type ProviderCall, type ViewFetcher } from './types.js';

/*
 * Philips Hue (remote API, https://api.meethue.com, CLIP v2 under `route/clip/v2`; the bridge's
 * `hue-application-key` comes with the credentials, decision 0041).
 */

const SERVICE = 'philipshue';
/** A bridge holds about 50 lights; more is a provider's mistake. */
const MAX_LIGHTS = 100;
const MAX_ROOMS = 100;
/** CLIP v2 ids are UUIDs; anything else cannot be a light (and must not shape the path). */
const RESOURCE_ID = /^[A-Za-z0-9-]{1,64}$/;

/** Whether an id can be a CLIP v2 resource's (checked before any call is made). */
export const isHueResourceId = (id: string): boolean => RESOURCE_ID.test(id);

/** The headline: "n of m lights on". */
const LIGHTS_ON: Record<string, string> & { en: string } = {
  en: '{on} of {all} lights on',
  es: '{on} de {all} luces encendidas',
  de: '{on} von {all} Lampen an',
  fr: '{on} lumières allumées sur {all}',
  it: '{on} luci accese su {all}',
  pt: '{on} de {all} luzes acesas',
  ja: '{all} 個中 {on} 個のライトが点灯',
  zh: '{all} 盏灯中 {on} 盏亮着',
};

/** Sorting words the person's language's way (English for a tag the runtime does not know). */
function collatorFor(language: string): Intl.Collator {
  try {
    return new Intl.Collator(language, { sensitivity: 'base', numeric: true });
  } catch {
    return new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  }
}

/** A CLIP v2 answer's `data`: `{errors: [], data: [...]}`; anything else is not the bridge answering. */
function clipData(answer: unknown): unknown[] {
  const found: Json = answerObject(answer);
  if (!Array.isArray(found.data)) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');
  return found.data as unknown[];
}

/** The first CLIP v2 error's description, if the answer has any. */
function clipError(answer: unknown): string | null {
  const errors = list(record(answer)?.errors);
  if (errors.length === 0) return null;
  return text(record(errors[0])?.description, 200) || 'error';
}

/** Which room each device (and each light a room names directly) is in, by resource id. */
function roomsByResource(rooms: unknown[]): Map<string, string> {
  const byResource = new Map<string, string>();
  for (const value of rooms.slice(0, MAX_ROOMS)) {
    const room = record(value);
    const name = text(record(room?.metadata)?.name);
    if (!room || !name || (room.type !== undefined && room.type !== 'room')) continue;
    for (const child of list(room.children).slice(0, 200)) {
      const reference = record(child);
      const rid = idOf(reference?.rid);
      // Rooms group devices (a light's owner); a light named directly counts too.
      if (rid && (reference?.rtype === 'device' || reference?.rtype === 'light') && !byResource.has(rid)) byResource.set(rid, name);
    }
  }
  return byResource;
}

function lightItem(value: unknown, rooms: Map<string, string>): DayItem | null {
  const light = record(value);
  if (!light || (light.type !== undefined && light.type !== 'light')) return null;
  const id = idOf(light.id);
  const name = text(record(light.metadata)?.name);
  const on = record(light.on)?.on;
  // Without its state a light cannot have a switch on screen.
  if (!id || !name || typeof on !== 'boolean') return null;
  const brightness = record(light.dimming)?.brightness;
  const dimmable = typeof brightness === 'number' && Number.isFinite(brightness) && brightness >= 0 && brightness <= 100;
  const owner = idOf(record(light.owner)?.rid);
  return dayItem({
    id,
    service: SERVICE,
    kind: 'light',
    title: name,
    subtitle: rooms.get(id) ?? (owner ? rooms.get(owner) : undefined) ?? null,
    on,
    // An off light keeps its last brightness at the bridge; on screen it is 0. A plug has none.
    value: dimmable ? (on ? Math.round(brightness) : 0) : null,
  });
}

/**
 * Philips Hue: every light with its room and state (`resource/room` and `resource/light`; a
 * light's `owner` is its device, and rooms list their devices as `children`), for the switches
 * on screen. No scopes (Hue has none). Nothing goes on the timeline: lights are a state, not
 * something that happened.
 */
export const philipsHueView: ViewFetcher = {
  service: SERVICE,
  // Hue does not publish the remote API's limits; the bridge behind it answers about 10 requests
  // a second shared by every app in the home, and answers 429 beyond. A fetch is two calls, and a
  // switch from the screen fetches again at once; lights also change from wall switches and
  // other apps, so every 5 minutes keeps the card close to the truth at a tiny share of that.
  intervalMs: 5 * 60_000,
  async fetch(call, context) {
    const [roomAnswer, lightAnswer] = await Promise.all([call({ path: 'route/clip/v2/resource/room' }), call({ path: 'route/clip/v2/resource/light' })]);
    const rooms = roomsByResource(clipData(roomAnswer));

    const seen = new Set<string>();
    const lights: DayItem[] = [];
    for (const value of clipData(lightAnswer).slice(0, MAX_LIGHTS * 2)) {
      const item = lightItem(value, rooms);
      if (!item || seen.has(item.id)) continue;
      seen.add(item.id);
      lights.push(item);
    }
    // By room (lights without one last), then by name, in the person's language's order.
    const collator = collatorFor(context.language);
    lights.sort(
      (a, b) =>
        Number(a.subtitle === null) - Number(b.subtitle === null) || collator.compare(a.subtitle ?? '', b.subtitle ?? '') || collator.compare(a.title, b.title),
    );
    const shown = lights.slice(0, MAX_LIGHTS);

    // The card's line is a summary, not one light: an item of kind `light` with id and code
    // `lights_on`, the words "n of m lights on" in the person's language as title, `value` the
    // number of lights on, and `on` whether any is.
    const onCount = shown.filter((light) => light.on).length;
    const headline = shown.length
      ? dayItem({
          id: 'lights_on',
          service: SERVICE,
          kind: 'light',
          title: inLanguage(LIGHTS_ON, context.language).replace('{on}', String(onCount)).replace('{all}', String(shown.length)),
          value: onCount,
          code: 'lights_on',
          on: onCount > 0,
        })
      : null;

    return { headline, sections: [{ key: 'lights', items: shown }], timeline: [] };
  },
};

/**
 * Switches one light at the provider (CLIP v2 `PUT resource/light/{id}` `{"on":{"on":…}}`).
 * Throws a ProviderCallError when refused: an id that cannot be a light, or one the bridge does
 * not know, is `refused` with 404 (the bridge's own 404 passes through as that); CLIP v2 errors in
 * a 2xx answer (a 207 multi-status) are `refused` with their description.
 */
export async function switchHueLight(call: ProviderCall, lightId: string, on: boolean): Promise<void> {
  if (!RESOURCE_ID.test(lightId)) throw new ProviderCallError('refused', 404, null, 'no such light');
  const answer = await call({ method: 'PUT', path: `route/clip/v2/resource/light/${encodeURIComponent(lightId)}`, body: { on: { on } } });
  const problem = clipError(answer);
  if (problem) throw new ProviderCallError('refused', 207, null, problem);
}
