import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventBus, QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { AppGrant, ConsentDecision, ConsentInfo, Language } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { AppError } from '../../core/http/app-error.js';
import { SessionStartQuery } from '../auth/public/queries.js';
import { ConsentDeniedEvent, ConsentGivenEvent, GrantRevokedEvent } from './public/events.js';
import { ClientsService, redirectUriMatches } from './clients.service.js';
import type { OAuthServerDb } from './entities/index.js';
import type { ClientRecord } from './client-cache.js';
import { OAuthGrant } from './entities/oauth-grant.entity.js';
import { OAuthProtocolError } from './oauth.errors.js';
import { readParams } from './params.js';
import { describeScopes, parseScope } from './scopes.js';
import { CODE_PREFIX, newSecret, sha256 } from './secrets.js';
import { TokenStore } from './token-store.service.js';
import { msg, render } from '../../core/i18n/messages.js';

export const CODE_LIFETIME_SECONDS = 60;

/** The database's clock, as the statements have always used it. */
const now = () => sql<Date>`now()`;

const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'prompt',
  'response_mode',
] as const;

/** A checked authorization request: everything needed to ask for consent or to issue a code. */
export interface AuthorizationRequest {
  client: ClientRecord;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge?: string;
  nonce?: string;
}

export interface ConsentingUser {
  id: string;
  sessionId: string;
}

/**
 * The authorization endpoint: validates a request (client, exact redirect URI, scopes, PKCE)
 * without ever redirecting on a bad client or URI, remembers consent as a grant, and issues
 * the code through @node-oauth/oauth2-server's authorize handler.
 */
@Injectable()
export class AuthorizationService {
  private readonly logger = new Logger(AuthorizationService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly clients: ClientsService,
    private readonly tokens: TokenStore,
    private readonly events: EventBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get db() {
    return this.em.getKysely<OAuthServerDb>();
  }

  get issuer(): string {
    return this.config.appUrl;
  }

  /** Every check of an authorization request; errors are JSON for the page, never a redirect. */
  async check(source: unknown): Promise<AuthorizationRequest> {
    const p = readParams(source, AUTHORIZE_PARAMS);
    if (!p.client_id) throw new OAuthProtocolError('invalid_request', msg('oauth.clientIdMissing'));
    const client = await this.clients.findActive(p.client_id);
    if (!client) throw new OAuthProtocolError('invalid_client', msg('oauth.unknownClient'), 400);
    if (client.redirectUris.length === 0) throw new OAuthProtocolError('invalid_request', msg('oauth.noRedirectUris'));
    if (!p.redirect_uri && client.redirectUris.length > 1) {
      throw new OAuthProtocolError('invalid_request', msg('oauth.redirectUriMissing'));
    }
    const redirectUri = p.redirect_uri ?? client.redirectUris[0]!;
    if (!redirectUriMatches(client.redirectUris, redirectUri)) {
      throw new OAuthProtocolError('invalid_request', msg('oauth.redirectUriMismatch'));
    }
    // Only the code flow (RFC 9700 §2.1.2: no implicit grant). The spec's Autorizar omits response_type.
    if ((p.response_type ?? 'code') !== 'code') {
      throw new OAuthProtocolError('unsupported_response_type', msg('oauth.responseTypeCodeOnly'));
    }
    if (p.response_mode && p.response_mode !== 'query') throw new OAuthProtocolError('invalid_request', msg('oauth.responseModeQueryOnly'));
    const scopes = parseScope(p.scope);
    const notAllowed = scopes.filter((scope) => !client.allowedScopes.includes(scope));
    if (notAllowed.length > 0) {
      throw new OAuthProtocolError('invalid_scope', msg('oauth.scopesNotAllowed', { scopes: notAllowed.slice(0, 3).join(', ') }));
    }
    if (p.state && p.state.length > 500) throw new OAuthProtocolError('invalid_request', msg('oauth.stateTooLong'));
    if (p.nonce && p.nonce.length > 500) throw new OAuthProtocolError('invalid_request', msg('oauth.nonceTooLong'));
    if (p.code_challenge) {
      if ((p.code_challenge_method ?? 'plain') !== 'S256') {
        throw new OAuthProtocolError('invalid_request', msg('oauth.pkceS256Only'));
      }
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(p.code_challenge)) throw new OAuthProtocolError('invalid_request', 'code_challenge no es válido.');
    } else if (p.code_challenge_method) {
      throw new OAuthProtocolError('invalid_request', msg('oauth.codeChallengeMissing'));
    } else if (client.clientType === 'public') {
      throw new OAuthProtocolError('invalid_request', msg('oauth.pkceRequired'));
    }
    return { client, redirectUri, scopes, state: p.state, codeChallenge: p.code_challenge, nonce: p.nonce };
  }

  async describe(source: unknown, language: Language = 'es'): Promise<ConsentInfo> {
    const request = await this.check(source);
    return {
      client_id: request.client.clientId,
      client_name: request.client.name,
      redirect_uri: request.redirectUri,
      scope: request.scopes.join(' '),
      scopes: describeScopes(request.scopes, language),
      state: request.state ?? null,
      logo_uri: request.client.logoUri,
      policy_uri: request.client.policyUri,
      tos_uri: request.client.tosUri,
      verified: request.client.verified,
      developer_app: request.client.developerId !== null,
    };
  }

  private redirect(base: string, params: Record<string, string | undefined>): string {
    const url = new URL(base);
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    return url.toString();
  }

  /** The person's answer on the consent screen: where the browser goes next. */
  async decide(source: unknown, action: 'allow' | 'deny', user: ConsentingUser): Promise<ConsentDecision> {
    const request = await this.check(source);
    if (action === 'deny') {
      await this.events.publish(new ConsentDeniedEvent(request.client.clientId, request.scopes));
      return {
        redirect_to: this.redirect(request.redirectUri, {
          error: 'access_denied',
          error_description: render(msg('oauth.accessDenied')),
          state: request.state,
          iss: this.issuer,
        }),
      };
    }
    const grantId = await this.remember(user.id, request.client, request.scopes);
    await this.events.publish(new ConsentGivenEvent(request.client.clientId, request.scopes, grantId));
    const authTime = await this.sessionStart(user.sessionId);
    const location = await this.issueCode(request, { id: user.id, grantId, authTime });
    const url = new URL(location);
    url.searchParams.set('iss', this.issuer); // RFC 9207
    return { redirect_to: url.toString() };
  }

  private async sessionStart(sessionId: string): Promise<Date> {
    return (await this.queries.execute(new SessionStartQuery(sessionId))) ?? new Date();
  }

  /** The grant for this person and app now covers these scopes (added to what it had, unless it was revoked). */
  private async remember(userId: string, client: ClientRecord, scopes: string[]): Promise<string> {
    const row = await this.db
      .insertInto('oauth_grants')
      .values({
        id: randomUUID(),
        created_at: now(),
        updated_at: now(),
        user_id: userId,
        client_id: client.id,
        scopes: JSON.stringify(scopes),
        revoked_at: null,
      })
      .onConflict((oc) =>
        oc.columns(['user_id', 'client_id']).doUpdateSet((eb) => ({
          updated_at: now(),
          revoked_at: null,
          scopes: eb
            .case()
            .when('oauth_grants.revoked_at', 'is', null)
            // Raw SQL: the union of two jsonb arrays (distinct, sorted) has no Kysely form that stays readable.
            .then(
              sql<string>`(select coalesce(jsonb_agg(distinct s), '[]'::jsonb) from jsonb_array_elements_text(${eb.ref('oauth_grants.scopes')} || ${eb.ref('excluded.scopes')}) s)`,
            )
            .else(eb.ref('excluded.scopes'))
            .end(),
        })),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  private async issueCode(request: AuthorizationRequest, subject: { id: string; grantId: string; authTime: Date }): Promise<string> {
    const db = this.db;
    const client = request.client;
    const server = new OAuth2Server({
      allowEmptyState: true,
      authorizationCodeLifetime: CODE_LIFETIME_SECONDS,
      model: {
        getClient: async () => ({ id: client.id, grants: ['authorization_code'], redirectUris: [request.redirectUri] }),
        generateAuthorizationCode: async () => newSecret(CODE_PREFIX),
        saveAuthorizationCode: async (code: OAuth2Server.AuthorizationCode, _client: OAuth2Server.Client, user: OAuth2Server.User) => {
          await db
            .insertInto('oauth_codes')
            .values({
              id: randomUUID(),
              created_at: now(),
              updated_at: now(),
              code_hash: sha256(code.authorizationCode),
              client_id: client.id,
              user_id: user.id,
              grant_id: user.grantId,
              redirect_uri: code.redirectUri,
              scopes: JSON.stringify(request.scopes),
              code_challenge: code.codeChallenge ?? null,
              code_challenge_method: code.codeChallengeMethod ?? null,
              nonce: request.nonce ?? null,
              auth_time: subject.authTime,
              expires_at: code.expiresAt,
            })
            .execute();
          return { ...code, client: _client, user };
        },
        getAccessToken: async () => false,
        saveToken: async () => false,
      } as unknown as OAuth2Server.AuthorizationCodeModel,
    });
    const body = {
      client_id: client.clientId,
      redirect_uri: request.redirectUri,
      response_type: 'code',
      ...(request.state ? { state: request.state } : {}),
      ...(request.codeChallenge ? { code_challenge: request.codeChallenge, code_challenge_method: 'S256' } : {}),
    };
    const req = new OAuth2Server.Request({ method: 'POST', headers: { 'content-type': 'application/json' }, query: {}, body });
    const res = new OAuth2Server.Response({ headers: {} });
    await server.authorize(req, res, { authenticateHandler: { handle: () => subject } });
    const location = res.get('location') as string | undefined;
    if (!location) throw new AppError(500, 'internal_error', msg('oauth.codeNotIssued'));
    return location;
  }

  /** Apps holding a grant from this person (profile: 'Aplicaciones con acceso'). */
  async grantsOf(userId: string, language: Language = 'es'): Promise<AppGrant[]> {
    const grants = await this.em.find(OAuthGrant, { user: userId, revokedAt: null }, { populate: ['client'], orderBy: { createdAt: 'desc' } });
    return grants.map((grant) => ({
      id: grant.id,
      client_id: grant.client.clientId,
      client_name: grant.client.name,
      scopes: describeScopes(grant.scopes, language),
      granted_at: grant.createdAt.toISOString(),
      updated_at: grant.updatedAt.toISOString(),
    }));
  }

  /** Ends a grant: its tokens stop working at once and its unused codes can no longer be exchanged. */
  async revokeGrant(userId: string, grantId: string): Promise<{ clientId: string; tokens: number }> {
    const row = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now(), updated_at: now() })
      .where('id', '=', grantId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('client_id')
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found', msg('oauth.noGrant'));
    await this.spendCodes('grant_id', grantId);
    const tokens = await this.tokens.revokeGrant(grantId);
    this.logger.log({ grantId, tokens }, 'Grant revoked by its owner');
    return { clientId: row.client_id, tokens };
  }

  /** Codes of a grant or a person that were not exchanged yet can no longer be (a used code keeps its time). */
  private async spendCodes(column: 'grant_id' | 'user_id', id: string): Promise<void> {
    await this.db
      .updateTable('oauth_codes')
      .set((eb) => ({ used_at: eb.fn.coalesce('used_at', now()) }))
      .where(column, '=', id)
      .execute();
  }

  /** 'Aplicaciones con acceso': the owner revokes one grant (the audit log hears of it). */
  async revokeGrantByOwner(userId: string, grantId: string): Promise<void> {
    const { clientId } = await this.revokeGrant(userId, grantId);
    await this.events.publish(new GrantRevokedEvent(grantId, clientId));
  }

  /**
   * Account erasure: every live grant of the person revoked as on the profile page (codes spent,
   * tokens revoked), and any other live token issued for them. Safe to run again.
   */
  async revokeAllFor(userId: string): Promise<{ grants: number; tokens: number }> {
    const grants = await this.db.selectFrom('oauth_grants').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    let tokens = 0;
    for (const { id } of grants) {
      try {
        tokens += (await this.revokeGrant(userId, id)).tokens;
      } catch (error) {
        // Revoked meanwhile by the person or another run: nothing left to do for it.
        if (!(error instanceof AppError && error.status === 404)) throw error;
      }
    }
    tokens += await this.tokens.revokeAllOfUser(userId);
    await this.spendCodes('user_id', userId);
    return { grants: grants.length, tokens };
  }

  /** How many of the person's grants and tokens were revoked since a moment (the erasure's report). */
  async revokedSince(userId: string, since: Date): Promise<{ grants: number; tokens: number }> {
    const count = (table: 'oauth_grants' | 'oauth_tokens') =>
      this.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('revoked_at', '>=', since)
        .executeTakeFirstOrThrow();
    const grants = await count('oauth_grants');
    const tokens = await count('oauth_tokens');
    return { grants: Number(grants.n), tokens: Number(tokens.n) };
  }
}
