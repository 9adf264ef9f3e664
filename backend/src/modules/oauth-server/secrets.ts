import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, base64url, with a readable prefix (lat_ access, lrt_ refresh, lac_ code, lcs_ client secret). */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/** Secrets are 256-bit random, so one SHA-256 is enough (no slow hash needed: nothing to brute-force). */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function hashesEqual(storedHex: string, candidate: string): boolean {
  const a = Buffer.from(storedHex, 'hex');
  const b = Buffer.from(sha256(candidate), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const ACCESS_TOKEN_PREFIX = 'lat_';
export const REFRESH_TOKEN_PREFIX = 'lrt_';
export const CODE_PREFIX = 'lac_';
export const CLIENT_SECRET_PREFIX = 'lcs_';
