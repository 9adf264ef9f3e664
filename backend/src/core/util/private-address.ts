import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses that reach this machine or its private network rather than the internet
 * (issue 18, point 8d; decision 0032): loopback, RFC 1918, link-local (cloud metadata at
 * 169.254.169.254), "this network", carrier-grade NAT, and their IPv6 counterparts. An
 * IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is checked as the IPv4 address it maps.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** `localhost`, any `*.localhost` (RFC 6761 reserves them for loopback), with or without the final dot. */
const LOCAL_NAME = /(^|\.)localhost\.?$/i;

/**
 * Whether a URL's host is a loopback or private address, or a localhost name. The host is taken
 * as the WHATWG URL parser normalises it (so `http://2130706433/`, `http://0x7f.1/` and
 * `http://[::ffff:7f00:1]/` are all 127.0.0.1). Names are resolved elsewhere: `resolvesToPrivate`
 * at save time and `publicOnlyLookup` at connection time (decision 0050).
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (LOCAL_NAME.test(host)) return true;
  return isPrivateAddress(host);
}

/** Whether an IP address (v4 or v6; not a name) is loopback, private, link-local or unspecified. */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return PRIVATE.check(address, 'ipv4');
  if (version === 6) return PRIVATE.check(address, 'ipv6');
  return false;
}

/** How names become addresses: the system resolver (`dns.lookup`, what sockets use) unless a caller passes another. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;
const systemResolveAll: ResolveAll = (hostname) =>
  new Promise((resolve, reject) => {
    // A resolver that does not answer must not hold the admin's save for long.
    const timer = setTimeout(() => reject(new Error('lookup timed out')), 3000);
    dnsPromises
      .lookup(hostname, { all: true, verbatim: true })
      .then(
        (answers) => resolve(answers),
        (error: unknown) => reject(error as Error),
      )
      .finally(() => clearTimeout(timer));
  });

/**
 * Save time (decision 0050): whether a URL's host name resolves to a private or loopback address
 * (any of its addresses). A name that does not resolve now is not refused here (offline, or a
 * DNS record still to come): the connection-time check (`publicOnlyLookup`) refuses it then.
 */
export async function resolvesToPrivate(value: string, resolveAll: ResolveAll = systemResolveAll): Promise<boolean> {
  let host: string;
  try {
    host = new URL(value).hostname;
  } catch {
    return false;
  }
  if (isPrivateHost(host)) return true;
  if (host.startsWith('[') || isIP(host)) return false;
  try {
    const answers = await resolveAll(host);
    return answers.some((answer) => isPrivateAddress(answer.address));
  } catch {
    return false;
  }
}

/** The first of `fields` whose URL names a private host or a name that resolves to one (save time). */
export async function firstPrivateUrlFieldResolved<F extends string>(
  input: Partial<Record<F, string | null | undefined>>,
  fields: readonly F[],
  resolveAll: ResolveAll = systemResolveAll,
): Promise<F | undefined> {
  const local = firstPrivateUrlField(input, fields);
  if (local) return local;
  for (const field of fields) {
    const value = input[field]?.trim();
    if (value && (await resolvesToPrivate(value, resolveAll))) return field;
  }
  return undefined;
}

/** A connection refused because its host name resolved to a private or loopback address. */
export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to a private or loopback address (${address}); ALLOW_PRIVATE_SERVICE_URLS=true allows it`);
  }
}

/**
 * Connection time (decision 0050, DNS rebinding): a `lookup` for sockets (net/tls `lookup`,
 * http.Agent, undici's `connect`) that resolves as usual and refuses the connection when an
 * answer is private, so the address actually connected to is the one checked. IP literals never
 * reach a lookup: callers check them with `isPrivateHost` first.
 */
export function publicOnlyLookup(lookup: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: (...args: never[]) => void) => {
    const done = callback as unknown as (error: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void;
    lookup(hostname, options, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (error) return done(error);
      const answers = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
      const bad = answers.find((answer) => isPrivateAddress(answer.address));
      if (bad) return done(new PrivateAddressError(hostname, bad.address));
      done(null, address, family);
    });
  };
}

/** Whether a URL (as stored in a catalog row or a login provider) points at a private or loopback host. Unparseable: false (the shape check refuses it). */
export function isPrivateUrl(value: string): boolean {
  try {
    return isPrivateHost(new URL(value).hostname);
  } catch {
    return false;
  }
}

/** The first of `fields` whose value in `input` points at a private or loopback host, if any. */
export function firstPrivateUrlField<F extends string>(input: Partial<Record<F, string | null | undefined>>, fields: readonly F[]): F | undefined {
  return fields.find((field) => {
    const value = input[field]?.trim();
    return !!value && isPrivateUrl(value);
  });
}
