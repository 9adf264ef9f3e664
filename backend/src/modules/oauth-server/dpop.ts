import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../../core/redis/redis.module.js';
import { msg, type Message } from '../../core/i18n/messages.js';
import { DPOP_SIGNING_ALGS, dpopChallenge, OAuthProtocolError } from './oauth.errors.js';

export { DPOP_SIGNING_ALGS, dpopChallenge };

/** base64url characters of a 4096-bit RSA modulus (512 bytes). */
const MAX_RSA_MODULUS_CHARS = 683;

/** A proof's `iat` may be this far from our clock, either way; its `jti` is remembered for twice as long. */
export const DPOP_PROOF_WINDOW_SECONDS = 60;

/** More than any honest proof (an RSA 4096 key in the header is about 1.5 kB). */
const MAX_PROOF_LENGTH = 8192;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Where the proof was presented: the token endpoint answers 400, a protected resource 401 with a challenge. */
export type DPoPSite = 'token' | 'resource';

/** `ath`: the base64url SHA-256 of the access token the proof goes with. */
export const accessTokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The URL a proof's `htu` is compared with: no query, no fragment, normalised by the URL parser. */
function withoutQuery(value: string): string | undefined {
  try {
    const url = new URL(value);
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * DPoP proofs (RFC 9449 §4.3), verified with jose: a `dpop+jwt` signed with an asymmetric
 * algorithm by the public key in its own `jwk` header, for this method and URL, issued within
 * {@link DPOP_PROOF_WINDOW_SECONDS} of now, with a `jti` never seen before by any process (Redis
 * SET NX). Answers the key's RFC 7638 thumbprint (`jkt`). Only called when a request carries a
 * `DPoP` header or a bound token: Bearer requests never pay for it (decision 0036).
 */
@Injectable()
export class DPoPVerifier {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.prefix = `${config.queuePrefix}:oauth-dpop-jti:`;
  }

  /** The URL of one of our endpoints as a client names it in `htu` (APP_URL plus the path, no query). */
  endpointUrl(path: string): string {
    const queryAt = path.indexOf('?');
    return `${this.config.appUrl}${queryAt >= 0 ? path.slice(0, queryAt) : path}`;
  }

  invalid(site: DPoPSite, message: Message): OAuthProtocolError {
    return site === 'token'
      ? new OAuthProtocolError('invalid_dpop_proof', message, 400)
      : new OAuthProtocolError('invalid_dpop_proof', message, 401, dpopChallenge('invalid_dpop_proof'));
  }

  /** The thumbprint of the proof's key, or an `invalid_dpop_proof` error. */
  async verify(header: string | string[] | undefined, expected: { method: string; url: string; accessToken?: string }, site: DPoPSite): Promise<string> {
    if (Array.isArray(header)) throw this.invalid(site, msg('oauth.dpopProofRepeated'));
    if (!header) throw this.invalid(site, msg('oauth.dpopProofMissing'));
    if (header.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(header)) throw this.invalid(site, msg('oauth.dpopProofMalformed'));
    let payload: JWTPayload;
    let jwk: JWK;
    try {
      // An RSA key over 4096 bits costs CPU to check and proves nothing more: refused before any signature work.
      const modulus = (decodeProtectedHeader(header).jwk as JWK | undefined)?.n;
      if (typeof modulus === 'string' && modulus.length > MAX_RSA_MODULUS_CHARS) throw new Error('RSA key too large');
      const verified = await jwtVerify(header, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...DPOP_SIGNING_ALGS] });
      payload = verified.payload;
      jwk = verified.protectedHeader.jwk!;
    } catch {
      throw this.invalid(site, msg('oauth.dpopProofInvalid'));
    }
    // EmbeddedJWK refuses a private key; a symmetric one cannot come with an asymmetric alg. Belt and braces:
    if ('d' in jwk || 'k' in jwk) throw this.invalid(site, msg('oauth.dpopProofInvalid'));
    const { jti, htm, htu, iat, ath } = payload as JWTPayload & { htm?: unknown; htu?: unknown; ath?: unknown };
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) throw this.invalid(site, msg('oauth.dpopProofClaim', { claim: 'jti' }));
    if (htm !== expected.method) throw this.invalid(site, msg('oauth.dpopProofClaim', { claim: 'htm' }));
    if (typeof htu !== 'string' || htu.length > 4096 || withoutQuery(htu) !== withoutQuery(expected.url)) {
      throw this.invalid(site, msg('oauth.dpopProofClaim', { claim: 'htu' }));
    }
    if (typeof iat !== 'number' || Math.abs(Date.now() / 1000 - iat) > DPOP_PROOF_WINDOW_SECONDS) {
      throw this.invalid(site, msg('oauth.dpopProofClaim', { claim: 'iat' }));
    }
    if (expected.accessToken !== undefined && ath !== accessTokenHash(expected.accessToken)) {
      throw this.invalid(site, msg('oauth.dpopProofClaim', { claim: 'ath' }));
    }
    const jkt = await calculateJwkThumbprint(jwk, 'sha256');
    // RFC 9449 §11.1: a proof is used once, in whichever process sees it first.
    const key = `${this.prefix}${createHash('sha256').update(`${jkt}:${jti}`).digest('base64url')}`;
    // Redis away: the error becomes the usual 503 (a proof is never accepted unrecorded).
    const fresh = await this.redis.set(key, '1', 'EX', 2 * DPOP_PROOF_WINDOW_SECONDS + 5, 'NX');
    if (fresh !== 'OK') throw this.invalid(site, msg('oauth.dpopProofReplayed'));
    return jkt;
  }
}
