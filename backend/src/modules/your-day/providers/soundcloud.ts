import type { DayItem } from '@life/contracts';
import { dayItem, httpsUrl, idOf, instant, list, onToday, record, text } from './untrusted-json.js';
import { ProviderCallError, type ViewFetcher } from './types.js';

/* SoundCloud (API, https://api.soundcloud.com; `Authorization: OAuth <token>`). */

const SERVICE = 'soundcloud';
const SHOWN = 10;

const SOUNDCLOUD_TIME = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;

/** SoundCloud's times (`2026/11/28 09:12:44 +0000`), or ISO 8601, as a normalised instant, else null. */
export function soundcloudTime(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const parts = SOUNDCLOUD_TIME.exec(value);
  if (!parts) return instant(value);
  const [year, month, day, hour, minute, second, sign, offsetHours, offsetMinutes] = parts.slice(1) as string[];
  return instant(`${year}-${month}-${day}T${hour}:${minute}:${second}${sign}${offsetHours}:${offsetMinutes}`);
}

interface Like {
  item: DayItem;
  /** When the person liked it, when SoundCloud says (not in `me/likes/tracks`' tracks). */
  likedAt: string | null;
}

/**
 * One entry of the likes: a track (what `me/likes/tracks` lists), or a like holding its track and
 * when it was made (`{created_at, kind: "like", track}`, as SoundCloud's likes feeds write them).
 */
function like(value: unknown): Like | null {
  const entry = record(value);
  if (!entry) return null;
  const wrapped = record(entry.track);
  const track = wrapped ?? entry;
  if (track.kind !== undefined && track.kind !== 'track') return null;
  const id = idOf(track.id);
  const title = text(track.title);
  if (!id || !title) return null;
  const likedAt = wrapped ? soundcloudTime(entry.created_at) : null;
  return {
    item: dayItem({
      id,
      service: SERVICE,
      kind: 'like',
      title,
      subtitle: text(record(track.user)?.username) || null,
      url: httpsUrl(track.permalink_url),
      // When it was liked; the documented endpoint does not say, so when the track was published.
      at: likedAt ?? soundcloudTime(track.created_at),
    }),
    likedAt,
  };
}

/**
 * SoundCloud: the person's latest liked tracks (`me/likes/tracks`, newest like first, with
 * `linked_partitioning` so the answer is `{collection, next_href}`). SoundCloud has no scopes.
 */
export const soundcloudView: ViewFetcher = {
  service: SERVICE,
  // SoundCloud counts limits per app (client id), not per person: 15,000 stream requests a day,
  // and no published limit on other reads. Likes change a few times a day at most: every 30
  // minutes keeps a large number of people far from whatever SoundCloud enforces (429 is honoured).
  intervalMs: 30 * 60_000,
  async fetch(call, context) {
    const answer = await call({ path: 'me/likes/tracks', query: { limit: String(SHOWN), linked_partitioning: 'true' } });
    // With linked_partitioning the list is under `collection`; without, SoundCloud answers the bare list.
    const entries = Array.isArray(answer) ? answer : record(answer)?.collection;
    if (!Array.isArray(entries)) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');

    const seen = new Set<string>();
    const likes: Like[] = [];
    for (const value of list(entries).slice(0, 100)) {
      const found = like(value);
      if (!found || seen.has(found.item.id)) continue;
      seen.add(found.item.id);
      likes.push(found);
    }
    // SoundCloud lists likes newest first; that order stays (a track's own date says nothing of the like).
    const shown = likes.slice(0, SHOWN);

    return {
      headline: shown[0]?.item ?? null,
      sections: [{ key: 'likes', items: shown.map((l) => l.item) }],
      // "Liked today" only when SoundCloud says when it was liked: a track published today is not a like of today.
      timeline: onToday(
        shown.filter((l) => l.likedAt !== null).map((l) => l.item),
        context,
      ),
    };
  },
};
