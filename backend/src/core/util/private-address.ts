import { BlockList, isIP } from 'node:net';

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
 * `http://[::ffff:7f00:1]/` are all 127.0.0.1). Names are not resolved: see decision 0032.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (LOCAL_NAME.test(host)) return true;
  const version = isIP(host);
  if (version === 4) return PRIVATE.check(host, 'ipv4');
  if (version === 6) return PRIVATE.check(host, 'ipv6');
  return false;
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
