import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { BASE_SCOPES, LANGUAGES, SERVICE_NAMES, serviceScope } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ClientsService } from './clients.service.js';
import type { ClientRecord } from './client-cache.js';
import type { IncomingHttpHeaders } from 'node:http';
import { DPOP_SIGNING_ALGS, DPoPVerifier, dpopChallenge } from './dpop.js';
import { OAuthProtocolError, invalidToken, insufficientScope, missingToken } from './oauth.errors.js';
import type { Message } from '../../core/i18n/messages.js';
import { checkFormats, clientCredentials, readParams, type ParamFormat } from './params.js';
import { grantsEmail, grantsUsername } from './scopes.js';
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX } from './secrets.js';
import { TokenStore, type AccessTokenInfo } from './token-store.service.js';
import { msg } from '../../core/i18n/messages.js';
import { PersonProfileQuery } from '../users/public/queries.js';

const CLIENT_FAILED = msg('oauth.invalidClient');
const TOKEN_OP_PARAMS = ['token', 'token_type_hint', 'client_id', 'client_secret'];
/** RFC 7009 / 7662 parameters in the characters RFC 6749 Appendix A allows them. */
const TOKEN_OP_FORMATS: Readonly<Record<string, ParamFormat>> = { token: 'vschar', token_type_hint: 'vschar', client_id: 'vschar', client_secret: 'vschar' };

/** RFC 9449 §7.1: a DPoP token's problem, with the DPoP challenge. */
const dpopInvalidToken = (message: Message) => new OAuthProtocolError('invalid_token', message, 401, dpopChallenge('invalid_token'));

/**
 * Revocation (RFC 7009), introspection (RFC 7662), userinfo and the discovery documents
 * (RFC 8414, OpenID Connect Discovery).
 */
@Injectable()
export class ProtocolService {
  constructor(
    private readonly clients: ClientsService,
    private readonly store: TokenStore,
    private readonly dpop: DPoPVerifier,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The person's username for an introspection answer (users owns it). */
  private async username(userId: string): Promise<string | undefined> {
    return (await this.queries.execute(new PersonProfileQuery(userId)))?.username;
  }

  /** client_secret_basic or client_secret_post; `none` (client_id only) for public clients. */
  async authenticateClient(
    authorization: string | undefined,
    body: Record<string, string | undefined>,
    options: { allowPublic: boolean },
  ): Promise<ClientRecord> {
    const { id, secret, basic } = clientCredentials(authorization, body);
    checkFormats({ client_id: id || undefined, client_secret: secret || undefined }, TOKEN_OP_FORMATS);
    if (!id) throw new OAuthProtocolError('invalid_client', CLIENT_FAILED, 401);
    const client = await this.clients.authenticate(id, secret || undefined);
    if (!client || (!options.allowPublic && client.clientType === 'public')) {
      throw new OAuthProtocolError('invalid_client', CLIENT_FAILED, 401, basic ? { 'www-authenticate': 'Basic realm="life"' } : undefined);
    }
    return client;
  }

  /**
   * RFC 7009: always 200 for a token that is unknown, already revoked or someone else's (no
   * oracle). A refresh token takes its whole family with it; an access token goes alone.
   */
  async revoke(authorization: string | undefined, source: unknown): Promise<void> {
    const p = readParams(source, TOKEN_OP_PARAMS);
    checkFormats(p, TOKEN_OP_FORMATS);
    const client = await this.authenticateClient(authorization, p, { allowPublic: true });
    if (!p.token) throw new OAuthProtocolError('invalid_request', msg('oauth.tokenParamMissing'));
    if (p.token.startsWith(REFRESH_TOKEN_PREFIX)) {
      const row = await this.store.refreshRow(p.token);
      if (row && row.clientRowId === client.id) await this.store.revokeFamily(row.familyId, 'revoked');
    } else if (p.token.startsWith(ACCESS_TOKEN_PREFIX)) {
      const row = await this.store.accessRow(p.token);
      if (row && row.clientRowId === client.id) await this.store.revokeById(row.id, 'revoked');
    }
  }

  /** RFC 7662, for confidential clients about their own tokens; anything else is `active: false`. */
  async introspect(authorization: string | undefined, source: unknown): Promise<Record<string, unknown>> {
    const p = readParams(source, TOKEN_OP_PARAMS);
    checkFormats(p, TOKEN_OP_FORMATS);
    const client = await this.authenticateClient(authorization, p, { allowPublic: false });
    if (!p.token) throw new OAuthProtocolError('invalid_request', msg('oauth.tokenParamMissing'));
    const base = { iss: this.config.appUrl, client_id: client.clientId, aud: client.clientId };
    if (p.token.startsWith(ACCESS_TOKEN_PREFIX)) {
      const info = await this.store.findAccess(p.token);
      if (!info || info.clientRowId !== client.id) return { active: false };
      return {
        active: true,
        ...base,
        token_type: info.dpopJkt ? 'DPoP' : 'Bearer',
        ...(info.dpopJkt ? { cnf: { jkt: info.dpopJkt } } : {}),
        scope: info.scopes.join(' '),
        ...(info.userId ? { sub: info.userId, username: await this.username(info.userId) } : {}),
        iat: Math.floor(info.issuedAt.getTime() / 1000),
        exp: Math.floor(info.expiresAt.getTime() / 1000),
      };
    }
    if (p.token.startsWith(REFRESH_TOKEN_PREFIX)) {
      const info = await this.store.findRefresh(p.token);
      if (!info || info.clientRowId !== client.id) return { active: false };
      return {
        active: true,
        ...base,
        token_type: 'refresh_token',
        scope: info.scopes.join(' '),
        ...(info.userId ? { sub: info.userId, username: await this.username(info.userId) } : {}),
        iat: Math.floor(info.issuedAt.getTime() / 1000),
        ...(info.expiresAt ? { exp: Math.floor(info.expiresAt.getTime() / 1000) } : {}),
      };
    }
    return { active: false };
  }

  /**
   * The app token of a resource request (RFC 6750 header only: no tokens in URLs). RFC 9449: a
   * DPoP-bound token comes as `Authorization: DPoP` with a proof of its key for this method, URL
   * and token; sent as Bearer it is refused. A Bearer token costs no crypto and no Redis.
   */
  async appToken(request: { headers: IncomingHttpHeaders; method: string; url: string }): Promise<AccessTokenInfo> {
    const authorization = request.headers.authorization;
    const match = authorization && /^(Bearer|DPoP)\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(authorization);
    if (!match) throw missingToken();
    const token = match[2]!;
    if (match[1]!.toLowerCase() === 'bearer') {
      const info = await this.store.findAccess(token);
      if (!info) throw invalidToken();
      if (info.dpopJkt) throw dpopInvalidToken(msg('oauth.dpopBoundToken'));
      return info;
    }
    const jkt = await this.dpop.verify(
      request.headers.dpop,
      { method: request.method, url: this.dpop.endpointUrl(request.url), accessToken: token },
      'resource',
    );
    const info = await this.store.findAccess(token);
    if (!info) throw dpopInvalidToken(msg('oauth.invalidAccessToken'));
    if (!info.dpopJkt) throw dpopInvalidToken(msg('oauth.dpopNotBound'));
    if (info.dpopJkt !== jkt) throw dpopInvalidToken(msg('oauth.dpopKeyMismatch'));
    return info;
  }

  async userinfo(info: AccessTokenInfo): Promise<Record<string, unknown>> {
    if (!info.userId) throw invalidToken(msg('oauth.appTokenNotPerson'));
    if (!info.scopes.includes('openid')) throw insufficientScope('openid', info);
    const person = grantsUsername(info.scopes) || grantsEmail(info.scopes) ? await this.queries.execute(new PersonProfileQuery(info.userId)) : null;
    return {
      sub: info.userId,
      ...(person && grantsUsername(info.scopes) ? { preferred_username: person.username, name: person.username } : {}),
      ...(person && grantsEmail(info.scopes) ? { email: person.email, email_verified: person.emailVerified } : {}),
    };
  }

  metadata(openid: boolean): Record<string, unknown> {
    const issuer = this.config.appUrl;
    const common = {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      jwks_uri: `${issuer}/oauth/jwks`,
      userinfo_endpoint: `${issuer}/oauth/userinfo`,
      // OpenID Connect RP-Initiated Logout 1.0 (also registered for RFC 8414 metadata).
      end_session_endpoint: `${issuer}/oauth/logout`,
      scopes_supported: [...BASE_SCOPES, ...SERVICE_NAMES.map(serviceScope)],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
      require_pushed_authorization_requests: false,
      dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGS],
      service_documentation: `${issuer}/api/docs`,
      ui_locales_supported: [...LANGUAGES],
    };
    if (!openid) return common;
    return {
      ...common,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'preferred_username', 'name', 'email', 'email_verified'],
      // Decision 0033: what the authorization endpoint does with OIDC's optional parameters.
      prompt_values_supported: ['none', 'login', 'consent'],
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
    };
  }
}
