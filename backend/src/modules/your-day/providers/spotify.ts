import type { DayItem } from '@life/contracts';
import { answerObject, dayItem, httpsUrl, idOf, instant, list, onToday, record, text } from './untrusted-json.js';
import type { ViewFetcher } from './types.js';

/* Spotify (Web API, https://api.spotify.com/v1). */

const SERVICE = 'spotify';
const RECENT = 10;
/** A track longer than this is a provider's mistake (progress beyond it is ignored). */
const MAX_TRACK_MS = 6 * 60 * 60 * 1000;

function trackItem(value: unknown, extra: Partial<DayItem>): DayItem | null {
  const track = record(value);
  if (!track) return null;
  const trackId = idOf(track.id);
  const title = text(track.name);
  if (!trackId || !title) return null;
  const artists = list(track.artists)
    .map((artist) => text(record(artist)?.name))
    .filter((name): name is string => !!name);
  return dayItem({
    id: trackId,
    service: SERVICE,
    kind: 'track',
    title,
    subtitle: artists.length ? text(artists.join(', ')) : null,
    url: httpsUrl(record(track.external_urls)?.spotify),
    ...extra,
  });
}

/**
 * Spotify: what is playing now (`me/player/currently-playing`: 204, empty, when nothing is; an
 * episode or an ad has no track) and the last tracks played (`me/player/recently-played`).
 * Scopes: `user-read-currently-playing user-read-recently-played`.
 */
export const spotifyView: ViewFetcher = {
  service: SERVICE,
  // What is playing goes stale within minutes, so this view is fetched often; but Spotify's rate
  // limit is one rolling 30-second window per app (every person's calls count together) and is
  // not published. A fetch is two calls; every 3 minutes keeps a busy app far from it, and a 429
  // carries a Retry-After that the sync job honours.
  intervalMs: 3 * 60_000,
  async fetch(call, context) {
    const [playingAnswer, recentAnswer] = await Promise.all([
      call({ path: 'me/player/currently-playing', query: { additional_types: 'track' } }),
      call({ path: 'me/player/recently-played', query: { limit: String(RECENT) } }),
    ]);

    let nowPlaying: DayItem | null = null;
    if (playingAnswer !== null) {
      const playing = answerObject(playingAnswer);
      const type = playing.currently_playing_type;
      if (playing.is_playing === true && (type === undefined || type === 'track')) {
        const progress = typeof playing.progress_ms === 'number' && playing.progress_ms >= 0 && playing.progress_ms <= MAX_TRACK_MS ? playing.progress_ms : 0;
        nowPlaying = trackItem(playing.item, { at: new Date(context.now.getTime() - Math.round(progress)).toISOString(), live: true });
      }
    }

    const recent = answerObject(recentAnswer);
    const seen = new Set<string>();
    const played: DayItem[] = [];
    for (const entry of list(recent.items)) {
      const play = record(entry);
      const at = instant(play?.played_at);
      if (!play || !at) continue;
      const item = trackItem(play.track, { at });
      if (!item) continue;
      // A track played twice is two plays: the play's id is the track's and when it was played.
      item.id = `${item.id}@${at}`;
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      played.push(item);
    }
    played.sort((a, b) => Date.parse(b.at!) - Date.parse(a.at!));
    const recentlyPlayed = played.slice(0, RECENT);

    return {
      headline: nowPlaying ?? recentlyPlayed[0] ?? null,
      sections: [
        { key: 'now_playing', items: nowPlaying ? [nowPlaying] : [] },
        { key: 'recently_played', items: recentlyPlayed },
      ],
      timeline: onToday([...(nowPlaying ? [nowPlaying] : []), ...recentlyPlayed], context),
    };
  },
};
