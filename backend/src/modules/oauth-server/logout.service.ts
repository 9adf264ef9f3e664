import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { EndSessionInfo } from '@life/contracts';
import { compactVerify, createLocalJWKSet } from 'jose';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { redirectUriMatches } from './clients.service.js';
import { OAuthClient } from './entities/oauth-client.entity.js';
import { OAuthProtocolError } from './oauth.errors.js';
import { readParams } from './params.js';
import { SigningKeysService } from './signing-keys.service.js';
import { msg } from '../../core/i18n/messages.js';

/** The parameters of OpenID Connect RP-Initiated Logout 1.0 §2 this server reads. */
export const END_SESSION_PARAMS = ['id_token_hint', 'logout_hint', 'client_id', 'post_logout_redirect_uri', 'state', 'ui_locales'] as const;

/**
 * RP-initiated logout (decision 0034). The session is a bearer token the web app keeps in local
 * storage, so the end-session endpoint cannot end it by itself: a browser navigation gets the web
 * app's sign-out page, which asks this service (as JSON) whether the request is sound and where
 * to go afterwards, asks the person, ends the session with the usual sign-out API and then goes
 * there. Nothing here redirects: a bad request is an error shown on the page, never a redirect
 * (no open redirector). Tokens and grants the app holds are left alone: a grant is consent, not
 * a session.
 */
@Injectable()
export class LogoutService {
  constructor(
    private readonly em: EntityManager,
    private readonly keys: SigningKeysService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async describe(source: unknown): Promise<EndSessionInfo> {
    const p = readParams(source, END_SESSION_PARAMS);
    let clientId = p.client_id;
    if (p.id_token_hint) {
      const audiences = await this.hintAudiences(p.id_token_hint);
      if (clientId && !audiences.includes(clientId)) throw new OAuthProtocolError('invalid_request', msg('oauth.logoutClientMismatch'));
      clientId ??= audiences[0];
    }
    // Read here rather than from ClientCache: logout is rare, and only it needs these URIs.
    const client = clientId
      ? await this.em.fork().findOne(OAuthClient, { clientId, active: true, suspended: false }, { fields: ['clientId', 'name', 'postLogoutRedirectUris'] })
      : null;
    if (clientId && !client) throw new OAuthProtocolError('invalid_request', msg('oauth.unknownClient'));
    let redirectTo: string | null = null;
    if (p.post_logout_redirect_uri) {
      if (!client) throw new OAuthProtocolError('invalid_request', msg('oauth.logoutClientRequired'));
      if (!redirectUriMatches(client.postLogoutRedirectUris ?? [], p.post_logout_redirect_uri)) {
        throw new OAuthProtocolError('invalid_request', msg('oauth.logoutRedirectUriMismatch'));
      }
      const url = new URL(p.post_logout_redirect_uri);
      if (p.state) url.searchParams.set('state', p.state);
      redirectTo = url.toString();
    }
    return { client_id: client?.clientId ?? null, client_name: client?.name ?? null, redirect_to: redirectTo };
  }

  /**
   * The audiences of an ID token this server issued: signed by one of the keys in our JWKS
   * (retired keys stay there a week) and with our issuer. An expired one is fine (§2: the
   * person's session may well have outlived it); a forged, altered or foreign one is refused.
   */
  private async hintAudiences(hint: string): Promise<string[]> {
    const refused = () => new OAuthProtocolError('invalid_request', msg('oauth.logoutHintInvalid'));
    let claims: Record<string, unknown>;
    try {
      const { payload } = await compactVerify(hint, createLocalJWKSet(await this.keys.jwks()), { algorithms: [this.keys.algorithm] });
      claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    } catch {
      throw refused();
    }
    if (!claims || typeof claims !== 'object' || claims.iss !== this.config.appUrl) throw refused();
    const audiences = (Array.isArray(claims.aud) ? claims.aud : [claims.aud]).filter((value): value is string => typeof value === 'string' && !!value);
    if (audiences.length === 0) throw refused();
    // With several audiences, the one it was issued to (azp) is the app.
    if (typeof claims.azp === 'string' && audiences.includes(claims.azp)) return [claims.azp, ...audiences.filter((aud) => aud !== claims.azp)];
    return audiences;
  }
}
