import type { DayItem, DaySection, DayService } from '@life/contracts';

/** A call to the provider's API, relative to the connection's API base (the catalog row's `base_url`, its region's for Battle.net). */
export interface ProviderRequest {
  method?: 'GET' | 'POST' | 'PUT';
  /** Under the API base, without a leading slash: `me/player/recently-played`. */
  path: string;
  query?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

/**
 * Calls the provider with the person's token (refreshed first when due, refreshed and retried once
 * on a 401) and answers the parsed JSON of a 2xx answer (null for an empty one). Anything else is
 * thrown as a ProviderCallError; a fetcher lets it through (the sync job decides what it means).
 */
export type ProviderCall = (request: ProviderRequest) => Promise<unknown>;

export type ProviderFailure =
  /** 429, or the provider's own "slow down" (Bungie ThrottleSeconds): `retryAfterMs` from Retry-After when it said. */
  | 'rate_limited'
  /** 5xx, a timeout, unreachable, an answer that is not JSON or too large. */
  | 'provider_down'
  /** 401 after the refresh and retry, or the connection waits for a reconnect. */
  | 'needs_reconnect'
  /** 403: the connection's grant lacks a scope the view needs. */
  | 'missing_scope'
  /** Another 4xx: our request was wrong for this provider (a bug to log), or a resource is gone. */
  | 'refused';

export class ProviderCallError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    readonly status: number | null,
    readonly retryAfterMs: number | null = null,
    detail = '',
  ) {
    super(`${failure}${status ? ` (HTTP ${status})` : ''}${detail ? `: ${detail}` : ''}`);
  }
}

/** What a fetcher knows besides the provider. */
export interface ViewContext {
  now: Date;
  /** The person's IANA time zone (their last known one, else UTC): "today" and the 7 days of steps. */
  timeZone: string;
  /** The person's language (es, en, …), for providers that localise names (Battle.net's `locale`). */
  language: string;
}

/**
 * A service's view, from its provider: the sections the card's panel shows, the card's one-line
 * headline (or null), and the items that belong on the "Tu día" timeline (with `at` or `date`;
 * the read side keeps those of today in the reader's zone). Only what the screens show is kept.
 */
export interface FetchedView {
  headline: DayItem | null;
  sections: DaySection[];
  timeline: DayItem[];
}

export interface ViewFetcher {
  service: DayService;
  /** The shortest time between two scheduled fetches of one connection. */
  intervalMs: number;
  fetch(call: ProviderCall, context: ViewContext): Promise<FetchedView>;
}
