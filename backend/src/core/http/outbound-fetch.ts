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
  return async (url, init) => {
    const host = new URL(url).hostname;
    if (isPrivateHost(host)) throw new TypeError('fetch failed', { cause: new PrivateAddressError(host, host) });
    publicOnlyAgent ??= new Agent({ connect: { lookup: publicOnlyLookup() } });
    // undici's own fetch: the platform's fetch does not take a dispatcher from another undici version.
    return (await undiciFetch(url, { ...(init as object), dispatcher: publicOnlyAgent })) as unknown as Response;
  };
}
