import { ProviderCallError, type ProviderCall, type ProviderRequest } from './types.js';

/** What one call needs to reach the provider with the person's token. */
export interface CallCredentials {
  /** The connection's API base (the catalog row's, or its region's). */
  baseUrl: string;
  accessToken: string;
  /** `Bearer`, or `OAuth` for SoundCloud. */
  scheme: string;
  /** Headers the provider wants on every call (Notion-Version, Bungie's X-API-Key, Hue's application key). */
  headers: Record<string, string>;
  /** Query defaults the call does not carry itself (Battle.net's namespace). */
  query?: Record<string, string>;
}

export interface ProviderCallOptions {
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** The provider refused this token (401): a fresh one (refreshed now) or null when there is none. */
  onRejected?: (rejectedAccessToken: string) => Promise<CallCredentials | null>;
  timeoutMs?: number;
  maxBytes?: number;
}

const TIMEOUT_MS = 10_000;
/** A view's answers are small; more than this is a provider gone wrong. */
const MAX_BYTES = 2 * 1024 * 1024;
/** The longest wait a provider's Retry-After can ask of us before we try again anyway. */
const MAX_RETRY_AFTER_MS = 6 * 60 * 60 * 1000;

/** Retry-After as milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
}

/** The URL of a request under the API base; the path cannot leave it. */
export function requestUrl(baseUrl: string, request: ProviderRequest, defaults: Record<string, string> = {}): URL {
  const escapes = () => new ProviderCallError('refused', null, null, 'a view path must stay under the API base');
  // No scheme, no leading slash, no backslash (a URL parser reads it as a slash), no encoded dot,
  // no query or fragment of its own (those go in `query`), no dot segment.
  if (
    request.path.startsWith('/') ||
    /^[a-z][a-z0-9+.-]*:/i.test(request.path) ||
    /[\\?#]|%2e|%2f|%5c/i.test(request.path) ||
    request.path.split('/').some((s) => s === '..' || s === '.')
  ) {
    throw escapes();
  }
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const url = new URL(request.path, base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) throw escapes();
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  for (const [name, value] of Object.entries(defaults)) if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  return url;
}

async function readLimited(response: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A ProviderCall on the person's credentials: JSON in and out, the provider's refusals turned
 * into ProviderCallError (429 → rate_limited with Retry-After, 401 → refreshed and retried once,
 * then needs_reconnect, 403 → missing_scope, 5xx / timeout / unreachable / not JSON / too large →
 * provider_down, another 4xx → refused). The same code runs against the real providers and the
 * stand-ins.
 */
export function providerCall(credentials: CallCredentials, options: ProviderCallOptions = {}): ProviderCall {
  const doFetch = options.fetch ?? ((url, init) => fetch(url, init));
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  let current = credentials;
  return async (request) => {
    const send = async (creds: CallCredentials) => {
      const url = requestUrl(creds.baseUrl, request, creds.query);
      const headers: Record<string, string> = {
        accept: 'application/json',
        'user-agent': 'Life/1.0 (+your-day)',
        ...creds.headers,
        authorization: `${creds.scheme} ${creds.accessToken}`,
      };
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      try {
        return await doFetch(url, {
          method: request.method ?? 'GET',
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
        });
      } catch (error) {
        const reason = error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.message) : 'error';
        throw new ProviderCallError('provider_down', null, null, `no answer (${reason})`);
      }
    };
    let response = await send(current);
    if (response.status === 401 && options.onRejected) {
      await response.body?.cancel().catch(() => undefined);
      const fresh = await options.onRejected(current.accessToken);
      if (fresh && fresh.accessToken !== current.accessToken) {
        current = fresh;
        response = await send(current);
      }
    }
    if (response.status === 429) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderCallError('rate_limited', 429, retryAfterMs(response.headers.get('retry-after')));
    }
    if (response.status === 401) throw new ProviderCallError('needs_reconnect', 401);
    if (response.status === 403) {
      // GitHub's secondary rate limit is a 403 with Retry-After or x-ratelimit-remaining: 0.
      const wait = retryAfterMs(response.headers.get('retry-after'));
      const exhausted = response.headers.get('x-ratelimit-remaining') === '0';
      await response.body?.cancel().catch(() => undefined);
      if (wait !== null || exhausted) {
        const reset = Number(response.headers.get('x-ratelimit-reset'));
        throw new ProviderCallError('rate_limited', 403, wait ?? (Number.isFinite(reset) && reset > 0 ? Math.max(reset * 1000 - Date.now(), 0) : null));
      }
      throw new ProviderCallError('missing_scope', 403);
    }
    if (response.status >= 500) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderCallError('provider_down', response.status, retryAfterMs(response.headers.get('retry-after')));
    }
    if (response.status < 200 || response.status >= 300) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderCallError('refused', response.status);
    }
    const text = await readLimited(response, maxBytes).catch(() => {
      throw new ProviderCallError('provider_down', response.status, null, 'the answer broke off');
    });
    if (text === null) throw new ProviderCallError('provider_down', response.status, null, 'the answer is too large');
    if (text.trim() === '') return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderCallError('provider_down', response.status, null, 'the answer is not JSON');
    }
  };
}
