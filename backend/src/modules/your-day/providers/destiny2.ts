import type { DayItem } from '@life/contracts';
import { dayItem, inLanguage, instant, list, onToday, record, text, type Json } from './untrusted-json.js';
import { ProviderCallError, type ViewFetcher } from './types.js';

/* Destiny 2 (Bungie.net platform API, https://www.bungie.net/Platform; X-API-Key comes with the credentials). */

const SERVICE = 'destiny2';
/** Characters: the component of a profile with each character's class, light and last play. */
const CHARACTERS_COMPONENT = '200';
/** An account has at most 3 characters; more is a provider's mistake. */
const MAX_GUARDIANS = 10;
const MAX_LIGHT = 10_000;
/** Longest ThrottleSeconds believed (Bungie asks for seconds, at most minutes). */
const MAX_THROTTLE_SECONDS = 3600;

/** `classType` → the code the screens translate (`yourDay.destinyClasses.<code>`); 3 is "unknown". */
const CLASSES = ['titan', 'hunter', 'warlock'] as const;

const GUARDIAN: Record<string, string> & { en: string } = {
  en: 'Guardian',
  es: 'Guardián',
  de: 'Hüter',
  fr: 'Gardien',
  it: 'Guardiano',
  pt: 'Guardião',
  ja: 'ガーディアン',
  zh: '守护者',
};

/*
 * Bungie answers errors inside an HTTP 200 (PlatformErrorCodes in `ErrorCode`, 1 = Success) and
 * asks callers to slow down with `ThrottleSeconds`.
 */
/** ThrottleLimitExceeded (31, 35-37), PerEndpointRequestThrottleExceeded (51), the per-application and per-user throttles (54-57). */
const THROTTLED = new Set([31, 35, 36, 37, 51, 54, 55, 56, 57]);
/** SystemDisabled: Bungie is down for maintenance. */
const SYSTEM_DISABLED = 5;
/**
 * The person's grant is gone: WebAuthRequired (99), AccessTokenHasExpired (2111),
 * OAuthAccessTokenExpired (2115), RefreshTokenExpired (2118), and the authorization record
 * invalid, revoked or expired (2119-2121, 2123, 2124).
 */
const NEEDS_RECONNECT = new Set([99, 2111, 2115, 2118, 2119, 2120, 2121, 2123, 2124]);
/** ApplicationDisallowedByScope (2105), AccessNotPermittedByApplicationScope (2108). */
const MISSING_SCOPE = new Set([2105, 2108]);
/**
 * Our app's API key is wrong, missing or disabled (2101-2103, 2107): connecting again would not
 * help the person; it is our configuration to fix, so it is logged as a refused request.
 */
const APP_KEY = new Set([2101, 2102, 2103, 2107]);

/** The `Response` of a Bungie answer, or the ProviderCallError its ErrorCode and ThrottleSeconds mean. */
export function bungieResponse(answer: unknown): Json {
  const envelope = record(answer);
  const code = envelope?.ErrorCode;
  if (!envelope || typeof code !== 'number' || !Number.isSafeInteger(code)) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');
  const status = text(envelope.ErrorStatus, 100) || String(code);
  const throttle = envelope.ThrottleSeconds;
  const seconds = typeof throttle === 'number' && Number.isFinite(throttle) && throttle > 0 ? Math.min(Math.ceil(throttle), MAX_THROTTLE_SECONDS) : 0;
  // Asked to wait: even a successful answer says the next call must not come before.
  if (seconds > 0 || THROTTLED.has(code)) throw new ProviderCallError('rate_limited', 200, seconds > 0 ? seconds * 1000 : null, status);
  if (code === 1) {
    const response = record(envelope.Response);
    if (!response) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');
    return response;
  }
  if (code === SYSTEM_DISABLED) throw new ProviderCallError('provider_down', 200, null, status);
  if (NEEDS_RECONNECT.has(code)) throw new ProviderCallError('needs_reconnect', 200, null, status);
  if (MISSING_SCOPE.has(code)) throw new ProviderCallError('missing_scope', 200, null, status);
  if (APP_KEY.has(code)) throw new ProviderCallError('refused', 200, null, status);
  throw new ProviderCallError('provider_down', 200, null, status);
}

const MEMBERSHIP_ID = /^\d{1,20}$/;

interface Membership {
  type: number;
  id: string;
  name: string | null;
}

function membershipOf(value: unknown): Membership | null {
  const membership = record(value);
  const type = membership?.membershipType;
  const id = membership?.membershipId;
  if (!membership || typeof type !== 'number' || !Number.isSafeInteger(type) || type < 1 || type > 254) return null;
  if (typeof id !== 'string' || !MEMBERSHIP_ID.test(id)) return null;
  return { type, id, name: text(membership.bungieGlobalDisplayName, 100) || text(membership.displayName, 100) || null };
}

/**
 * The Destiny account to read: the primary one with cross save (`primaryMembershipId`), else the
 * one every platform saves to (`crossSaveOverride` = its own type), else the first.
 */
function pickMembership(response: Json): Membership | null {
  const entries = list(response.destinyMemberships).slice(0, 20);
  const memberships = entries.map(membershipOf);
  const primary = typeof response.primaryMembershipId === 'string' ? response.primaryMembershipId : null;
  const byPrimary = primary ? memberships.find((m) => m?.id === primary) : undefined;
  if (byPrimary) return byPrimary;
  const saved = memberships.find((m, i) => m && record(entries[i])?.crossSaveOverride === m.type);
  return saved ?? memberships.find((m) => m !== null) ?? null;
}

function guardianItem(value: unknown, title: string): DayItem | null {
  const character = record(value);
  const id = character?.characterId;
  if (!character || typeof id !== 'string' || !MEMBERSHIP_ID.test(id)) return null;
  const classType = character.classType;
  const light = character.light;
  return dayItem({
    id,
    service: SERVICE,
    kind: 'guardian',
    title,
    code: typeof classType === 'number' ? (CLASSES[classType as 0 | 1 | 2] ?? null) : null,
    value: typeof light === 'number' && Number.isSafeInteger(light) && light >= 0 && light <= MAX_LIGHT ? light : null,
    at: instant(character.dateLastPlayed),
  });
}

/**
 * Destiny 2: the guardians (characters) of the person's Destiny account, last played first, with
 * their class and light (`User/GetMembershipsForCurrentUser/`, then
 * `Destiny2/{membershipType}/Profile/{membershipId}/?components=200`). Bungie has no scopes to
 * ask (the app's are set at Bungie). The timeline has the guardians played today: "played
 * Destiny" is something that happened in the day.
 */
export const destiny2View: ViewFetcher = {
  service: SERVICE,
  // Bungie allows about 25 requests a second per API key, shared by everyone connected through
  // Life, and says when to slow down with ThrottleSeconds (a rate_limited with that wait). A fetch
  // is two calls; light changes only while playing: every 30 minutes is 10,000 people at about
  // 11 requests a second, under half the key's budget.
  intervalMs: 30 * 60_000,
  async fetch(call, context) {
    const memberships = bungieResponse(await call({ path: 'User/GetMembershipsForCurrentUser/' }));
    const membership = pickMembership(memberships);
    // A Bungie.net account without a Destiny account has no guardians.
    if (!membership) return { headline: null, sections: [{ key: 'guardians', items: [] }], timeline: [] };

    const profile = bungieResponse(await call({ path: `Destiny2/${membership.type}/Profile/${membership.id}/`, query: { components: CHARACTERS_COMPONENT } }));
    const bungieUser = record(memberships.bungieNetUser);
    const title = membership.name ?? (text(bungieUser?.uniqueName, 100) || text(bungieUser?.displayName, 100) || inLanguage(GUARDIAN, context.language));
    const data = record(record(profile.characters)?.data);

    const guardians: DayItem[] = [];
    for (const value of Object.values(data ?? {}).slice(0, MAX_GUARDIANS * 2)) {
      const item = guardianItem(value, title);
      if (item && !guardians.some((g) => g.id === item.id)) guardians.push(item);
    }
    // Last played first (Bungie's own order), those never played last.
    guardians.sort((a, b) => (b.at ? Date.parse(b.at) : 0) - (a.at ? Date.parse(a.at) : 0));
    const shown = guardians.slice(0, MAX_GUARDIANS);

    return {
      headline: shown[0] ?? null,
      sections: [{ key: 'guardians', items: shown }],
      timeline: onToday(
        shown.filter((g) => g.at !== null),
        context,
      ),
    };
  },
};
