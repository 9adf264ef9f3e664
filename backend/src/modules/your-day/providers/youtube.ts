import type { DayItem } from '@life/contracts';
import { answerObject, dayItem, instant, list, onToday, record, text } from './untrusted-json.js';
import { ProviderCallError, type ProviderCall, type ViewFetcher } from './types.js';

/* YouTube (Data API v3, https://www.googleapis.com/youtube/v3). */

const SERVICE = 'youtube';
const SUBSCRIPTIONS = 10;
/** Channels whose uploads are read: one quota unit each. */
const CHANNELS = 6;
const PER_CHANNEL = 3;
const SHOWN = 10;

const CHANNEL_ID = /^[A-Za-z0-9_-]{1,64}$/;
const VIDEO_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** What a playlist shows for a video its owner made private or deleted (no publication date then). */
const GONE_TITLES = new Set(['Private video', 'Deleted video']);

interface Channel {
  id: string;
  title: string | null;
}

function subscribedChannel(value: unknown): Channel | null {
  const snippet = record(record(value)?.snippet);
  const channelId = record(snippet?.resourceId)?.channelId;
  if (typeof channelId !== 'string' || !CHANNEL_ID.test(channelId)) return null;
  return { id: channelId, title: text(snippet?.title) || null };
}

function videoItem(value: unknown, channel: Channel): DayItem | null {
  const entry = record(value);
  const snippet = record(entry?.snippet);
  const details = record(entry?.contentDetails);
  const videoId = details?.videoId ?? record(snippet?.resourceId)?.videoId;
  const title = text(snippet?.title);
  if (typeof videoId !== 'string' || !VIDEO_ID.test(videoId) || !title) return null;
  const published = instant(details?.videoPublishedAt);
  if (!published && GONE_TITLES.has(title)) return null;
  return dayItem({
    id: videoId,
    service: SERVICE,
    kind: 'video',
    title,
    subtitle: text(snippet?.videoOwnerChannelTitle) || channel.title || text(snippet?.channelTitle) || null,
    url: `https://www.youtube.com/watch?v=${videoId}`,
    // When the video went public; the playlist's own date (when it was added) only as a fallback.
    at: published ?? instant(snippet?.publishedAt),
  });
}

/** Each channel's uploads playlist, from `channels` (one call, one unit, for all of them). */
async function uploadsPlaylists(call: ProviderCall, channels: Channel[]): Promise<Map<string, string>> {
  const answer = answerObject(
    await call({
      path: 'youtube/v3/channels',
      query: { part: 'contentDetails', id: channels.map((c) => c.id).join(','), maxResults: String(channels.length) },
    }),
  );
  const playlists = new Map<string, string>();
  for (const value of list(answer.items)) {
    const channel = record(value);
    const uploads = record(record(channel?.contentDetails)?.relatedPlaylists)?.uploads;
    if (typeof channel?.id === 'string' && typeof uploads === 'string' && CHANNEL_ID.test(uploads)) playlists.set(channel.id, uploads);
  }
  return playlists;
}

/**
 * YouTube: the latest videos of the channels the person subscribes to: `subscriptions` (mine),
 * `channels` (their uploads playlists), then each playlist's newest items (`playlistItems`),
 * never `search` (100 units a call). Scope: `youtube.readonly`.
 */
export const youtubeView: ViewFetcher = {
  service: SERVICE,
  // The Data API has one quota per project: 10,000 units a day shared by every person. A fetch
  // costs 1 (subscriptions) + 1 (channels) + up to 6 (playlistItems) = 8 units; every 6 hours is
  // 32 units a person a day, ~300 people on the default quota (more needs Google's quota
  // extension). New uploads are not minute-by-minute news, and "Actualizar" fetches at once.
  intervalMs: 6 * 60 * 60_000,
  async fetch(call, context) {
    const subscriptions = answerObject(
      await call({ path: 'youtube/v3/subscriptions', query: { part: 'snippet', mine: 'true', maxResults: String(SUBSCRIPTIONS), order: 'relevance' } }),
    );
    const seenChannels = new Set<string>();
    const channels = list(subscriptions.items)
      .map(subscribedChannel)
      .filter((channel): channel is Channel => channel !== null && !seenChannels.has(channel.id) && !!seenChannels.add(channel.id))
      .slice(0, CHANNELS);

    let videos: DayItem[] = [];
    if (channels.length > 0) {
      const playlists = await uploadsPlaylists(call, channels);
      const perChannel = await Promise.all(
        channels.map(async (channel) => {
          const playlistId = playlists.get(channel.id);
          if (!playlistId) return [];
          let answer: unknown;
          try {
            answer = await call({ path: 'youtube/v3/playlistItems', query: { part: 'snippet,contentDetails', playlistId, maxResults: String(PER_CHANNEL) } });
          } catch (error) {
            // A channel without uploads answers 404 playlistNotFound: it just has nothing to show.
            if (error instanceof ProviderCallError && error.failure === 'refused') return [];
            throw error;
          }
          return list(answerObject(answer).items)
            .map((entry) => videoItem(entry, channel))
            .filter((item): item is DayItem => item !== null);
        }),
      );
      const seenVideos = new Set<string>();
      videos = perChannel
        .flat()
        .filter((video) => !seenVideos.has(video.id) && !!seenVideos.add(video.id))
        .sort((a, b) => (b.at ? Date.parse(b.at) : 0) - (a.at ? Date.parse(a.at) : 0))
        .slice(0, SHOWN);
    }

    return {
      headline: videos[0] ?? null,
      sections: [{ key: 'latest_videos', items: videos }],
      timeline: onToday(videos, context),
    };
  },
};
