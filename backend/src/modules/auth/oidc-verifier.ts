import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, customFetch, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { outboundFetch, type OutboundFetch } from '../../core/http/outbound-fetch.js';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import { msg } from '../../core/i18n/messages.js';

interface Discovery {
  issuer: string;
  jwks: ReturnType<typeof createRemoteJWKSet>;
  fetchedAt: number;
}

const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/**
 * Verifies OpenID Connect id_tokens: signature against the provider's JWKS (from its
 * discovery document at `base_url`), issuer, audience, expiry and nonce.
 */
@Injectable()
export class OidcVerifier {
  private readonly cache = new Map<string, Discovery>();
  /** The discovery document and the JWKS reach public addresses only in production (decision 0050). */
  private readonly fetch: OutboundFetch;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.fetch = outboundFetch(config.allowPrivateServiceUrls);
  }

  private async discover(baseUrl: string): Promise<Discovery> {
    const cached = this.cache.get(baseUrl);
    if (cached && Date.now() - cached.fetchedAt < DISCOVERY_TTL_MS) return cached;
    const url = `${baseUrl.replace(/\/$/, '')}/.well-known/openid-configuration`;
    let document: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const response = await this.fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      document = (await response.json()) as typeof document;
    } catch (error) {
      throw new AuthError(AuthErrorCode.ProviderError, msg('auth.oidcDiscoveryFailed', { reason: error instanceof Error ? error.message : 'error' }));
    }
    if (typeof document.issuer !== 'string' || typeof document.jwks_uri !== 'string') {
      throw new AuthError(AuthErrorCode.ProviderError, msg('auth.oidcDiscoveryIncomplete'));
    }
    const discovery = {
      issuer: document.issuer,
      jwks: createRemoteJWKSet(new URL(document.jwks_uri), { timeoutDuration: 10_000, [customFetch]: this.fetch }),
      fetchedAt: Date.now(),
    };
    this.cache.set(baseUrl, discovery);
    return discovery;
  }

  async verify(idToken: string, options: { baseUrl: string; audience: string; nonce: string }): Promise<JWTPayload> {
    const discovery = await this.discover(options.baseUrl);
    let issuer = discovery.issuer;
    // Microsoft's multi-tenant ("common") issuer is a template filled with the token's tenant.
    if (issuer.includes('{tenantid}')) {
      let tid: unknown;
      try {
        tid = decodeJwt(idToken).tid;
      } catch {
        tid = undefined;
      }
      if (typeof tid !== 'string' || !/^[0-9a-f-]{36}$/i.test(tid)) throw new AuthError(AuthErrorCode.InvalidIdToken, msg('auth.idTokenBadTenant'));
      issuer = issuer.replace('{tenantid}', tid);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, discovery.jwks, {
        issuer,
        audience: options.audience,
        algorithms: ['RS256', 'ES256', 'PS256'],
        clockTolerance: 60,
      }));
    } catch (error) {
      throw new AuthError(AuthErrorCode.InvalidIdToken, msg('auth.idTokenInvalid', { reason: error instanceof Error ? error.message : 'error' }));
    }
    if (payload.nonce !== options.nonce) throw new AuthError(AuthErrorCode.InvalidIdToken, msg('auth.idTokenNonceMismatch'));
    if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new AuthError(AuthErrorCode.InvalidIdToken, msg('auth.idTokenNoSubject'));
    return payload;
  }
}
