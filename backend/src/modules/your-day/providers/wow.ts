import type { DayItem } from '@life/contracts';
import { answerObject, dayItem, idOf, list, record, text } from './untrusted-json.js';
import { ProviderCallError, type ViewFetcher } from './types.js';

/*
 * World of Warcraft (Battle.net profile API, https://{region}.api.blizzard.com; the
 * `namespace=profile-{region}` query comes with the credentials, decision 0042).
 */

const SERVICE = 'wow';
const SHOWN = 20;
const MAX_LEVEL = 200;

/** `playable_class.id` → the code the screens translate (`yourDay.wowClasses.<code>`). */
const CLASSES: Record<number, string> = {
  1: 'warrior',
  2: 'paladin',
  3: 'hunter',
  4: 'rogue',
  5: 'priest',
  6: 'death_knight',
  7: 'shaman',
  8: 'mage',
  9: 'warlock',
  10: 'monk',
  11: 'druid',
  12: 'demon_hunter',
  13: 'evoker',
};

/** Blizzard's locales by language; a language Blizzard has no locale for reads in English. */
const LOCALES: Record<string, string> = {
  en: 'en_US',
  es: 'es_ES',
  pt: 'pt_BR',
  de: 'de_DE',
  fr: 'fr_FR',
  it: 'it_IT',
  ru: 'ru_RU',
  ko: 'ko_KR',
  zh: 'zh_CN',
};
/** Regional variants Blizzard has a locale of its own for. */
const REGIONAL_LOCALES: Record<string, string> = {
  'en-gb': 'en_GB',
  'es-mx': 'es_MX',
  'es-419': 'es_MX',
  'zh-tw': 'zh_TW',
  'zh-hk': 'zh_TW',
  'zh-hant': 'zh_TW',
};

/** The Battle.net `locale` for the person's language (`es` → `es_ES`, `es-MX` → `es_MX`, `ja` → `en_US`). */
export function blizzardLocale(language: string): string {
  const tag = language.toLowerCase().replace(/_/g, '-');
  return REGIONAL_LOCALES[tag] ?? LOCALES[tag.split('-')[0] ?? ''] ?? 'en_US';
}

/**
 * A name Blizzard sends localised: a string when the call named a `locale`, else an object of
 * every locale (`{"en_US": "Draenor", "es_ES": "Draenor", …}`): the person's locale's, else English.
 */
function localised(value: unknown, locale: string): string | null {
  if (typeof value === 'string') return text(value);
  const names = record(value);
  if (!names) return null;
  for (const key of [locale, 'en_US', 'en_GB']) {
    const name = text(names[key]);
    if (name) return name;
  }
  return null;
}

const ARMORY_REGIONS = new Set(['us', 'eu', 'kr', 'tw']);
const SLUG = /^[a-z0-9-]{1,100}$/;

/** Sorting words the person's language's way (English for a tag the runtime does not know). */
function collatorFor(language: string): Intl.Collator {
  try {
    return new Intl.Collator(language, { sensitivity: 'base', numeric: true });
  } catch {
    return new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  }
}

/** The region a character's API link names (`…?namespace=profile-eu` on `eu.api.blizzard.com`), or null. */
function regionOf(href: unknown): string | null {
  if (typeof href !== 'string' || href.length > 2048) return null;
  try {
    const region = /^profile-([a-z]{2})$/.exec(new URL(href).searchParams.get('namespace') ?? '')?.[1];
    return region ?? null;
  } catch {
    return null;
  }
}

/** The character's page on the armory (worldofwarcraft.blizzard.com), or null (China has none; a realm slug we cannot trust). */
function armoryUrl(region: string | null, realmSlug: unknown, name: string, locale: string): string | null {
  if (!region || !ARMORY_REGIONS.has(region) || typeof realmSlug !== 'string' || !SLUG.test(realmSlug)) return null;
  const path = locale.toLowerCase().replace('_', '-');
  return `https://worldofwarcraft.blizzard.com/${path}/character/${region}/${realmSlug}/${encodeURIComponent(name.toLowerCase())}`;
}

function characterItem(value: unknown, locale: string, fallbackRegion: string | null): DayItem | null {
  const character = record(value);
  const id = idOf(character?.id);
  const name = text(character?.name, 100);
  const level = character?.level;
  if (!character || !id || !name || typeof level !== 'number' || !Number.isSafeInteger(level) || level < 1 || level > MAX_LEVEL) return null;
  const realm = record(character.realm);
  const classId = record(character.playable_class)?.id;
  const region = regionOf(record(character.character)?.href) ?? fallbackRegion;
  // A character's id is Blizzard's within its realm: with the realm, it is the person's one character.
  const realmKey = idOf(realm?.id) ?? (typeof realm?.slug === 'string' && SLUG.test(realm.slug) ? realm.slug : null);
  return dayItem({
    id: realmKey ? `${realmKey}-${id}` : id,
    service: SERVICE,
    kind: 'character',
    title: name,
    subtitle: localised(realm?.name, locale) ?? null,
    url: armoryUrl(region, realm?.slug, name, locale),
    value: level,
    code: typeof classId === 'number' ? (CLASSES[classId] ?? null) : null,
  });
}

/**
 * World of Warcraft: the characters of every WoW account of the person's Battle.net account
 * (`profile/user/wow`, in the connection's region), highest level first, names in the person's
 * language. Scope: `wow.profile`. Nothing goes on the timeline: the summary says nothing of when
 * a character was played.
 */
export const wowView: ViewFetcher = {
  service: SERVICE,
  // Blizzard allows 36,000 requests an hour (and 100 a second) per client, shared by everyone
  // connected through Life. Characters change slowly (a level, a new one now and then): one call
  // an hour per person keeps 10,000 people at under a third of the hourly budget.
  intervalMs: 60 * 60_000,
  async fetch(call, context) {
    const locale = blizzardLocale(context.language);
    const answer = answerObject(await call({ path: 'profile/user/wow', query: { locale } }));
    if (!Array.isArray(answer.wow_accounts)) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');
    const region = regionOf(record(record(answer._links)?.self)?.href);

    const seen = new Set<string>();
    const characters: DayItem[] = [];
    for (const account of answer.wow_accounts.slice(0, 20)) {
      for (const value of list(record(account)?.characters).slice(0, 200)) {
        const item = characterItem(value, locale, region);
        if (!item || seen.has(item.id)) continue;
        seen.add(item.id);
        characters.push(item);
      }
    }
    const collator = collatorFor(context.language);
    characters.sort((a, b) => b.value! - a.value! || collator.compare(a.title, b.title));
    const shown = characters.slice(0, SHOWN);

    return {
      headline: shown[0] ?? null,
      sections: [{ key: 'characters', items: shown }],
      timeline: [],
    };
  },
};
