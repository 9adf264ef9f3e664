import { Agent, fetch as undiciFetch } from 'undici';
import { isPrivateHost, PrivateAddressError, publicOnlyLookup } from '../util/private-address.js';

/** The fetch signature the provider calls use. */
export type OutboundFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** One connection pool for every call that must reach the public internet only; its lookup checks each address connected to. */
let publicOnlyAgent: Agent | undefined;

/**
 * fetch for the URLs an admin typed in (catalog rows, login providers: decision 0050). With
 * `allowPrivate` false (production without ALLOW_PRIVATE_SERVICE_URLS) a host that is a private
 * or loopback address, or a name that resolves to one when the connection is made (DNS
 * rebinding: the name checked at save time may point elsewhere now), fails like a network
 * error (`TypeError: fetch failed`, cause PrivateAddressError): callers already treat that as
 * "the provider did not answer". Otherwise it is the platform's fetch.
 */
export function outboundFetch(allowPrivate: boolean): OutboundFetch {
  if (allowPrivate) return (url, init) => fetch(url, init);
  return (url, init = {}) => {
    publicOnlyAgent ??= new Agent({ connect: { lookup: publicOnlyLookup() } });
    const agent = publicOnlyAgent;
    // undici's own fetch: the platform's fetch does not take a dispatcher from another undici version.
    return fetchCheckingRedirects(
      async (target, request) => (await undiciFetch(target, { ...(request as object), redirect: 'manual', dispatcher: agent })) as unknown as Response,
      url,
      init,
    );
  };
}

/**
 * Follows redirects itself, checking each hop's host: the public-only lookup never runs for an IP
 * literal, so a provider answering `Location: http://169.254.169.254/` would otherwise be followed.
 * As fetch does, a 303 (and a 301/302 after a POST) goes on as GET without a body, and credentials
 * never leave their origin. `fetchOnce` makes one request and never follows a redirect.
 */
export async function fetchCheckingRedirects(
  fetchOnce: (url: URL, init: RequestInit) => Promise<Response>,
  url: string | URL,
  init: RequestInit,
): Promise<Response> {
  const follow = (init.redirect ?? 'follow') === 'follow';
  let current = new URL(url);
  let request: RequestInit = { ...init, headers: new Headers(init.headers) };
  for (let hop = 0; ; hop += 1) {
    if (isPrivateHost(current.hostname)) throw new TypeError('fetch failed', { cause: new PrivateAddressError(current.hostname, current.hostname) });
    const response = await fetchOnce(current, request);
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (!follow || !location) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hop >= MAX_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error(`more than ${MAX_REDIRECTS} redirects`) });
    const next = new URL(location, current);
    const method = (request.method ?? 'GET').toUpperCase();
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      request = { ...request, method: 'GET', body: undefined };
    }
    if (next.origin !== current.origin) {
      const headers = new Headers(request.headers);
      headers.delete('authorization');
      headers.delete('cookie');
      request = { ...request, headers };
    }
    current = next;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
