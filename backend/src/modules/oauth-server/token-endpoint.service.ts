import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventBus, QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import OAuth2Server from '@node-oauth/oauth2-server';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { PersonProfileQuery } from '../users/public/queries.js';
import { CodeReplayDetectedEvent, RefreshReuseDetectedEvent } from './public/events.js';
import { ClientsService } from './clients.service.js';
import type { OAuthServerDb } from './entities/index.js';
import type { ClientRecord } from './client-cache.js';
import { OAuthProtocolError, type OAuthErrorCode } from './oauth.errors.js';
import { basicCredentials, checkFormats, clientCredentials, readParams, type ParamFormat } from './params.js';
import { grantsEmail, grantsUsername } from './scopes.js';
import { ACCESS_TOKEN_PREFIX, CODE_PREFIX, newSecret, REFRESH_TOKEN_PREFIX, sha256 } from './secrets.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokenStore, type GracePair } from './token-store.service.js';
import { msg, type Text } from '../../core/i18n/messages.js';

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
export const ID_TOKEN_LIFETIME_SECONDS = 3600;

const TOKEN_PARAMS = ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope', 'client_id', 'client_secret'];
const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token', 'client_credentials'];
/** The library's own rules for these (RFC 6749 Appendix A, RFC 7636 §4.1), checked before it runs. */
const TOKEN_FORMATS: Readonly<Record<string, ParamFormat>> = {
  grant_type: 'vschar',
  code: 'vschar',
  redirect_uri: 'uri',
  code_verifier: 'pkce',
  refresh_token: 'vschar',
  scope: 'nqschar',
  client_id: 'vschar',
  client_secret: 'vschar',
};
/** RFC 6749 §5.1 and OpenID Connect Core §3.1.3.3: the members of a token answer, and no others. */
export const TOKEN_ANSWER_MEMBERS = ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope', 'id_token'] as const;

/** Who a token is for, carried through the library from the code or refresh token to saveToken. */
interface Subject {
  id: string | null;
  clientOnly?: boolean;
  grantId?: string | null;
  codeId?: string | null;
  familyId?: string;
  nonce?: string | null;
  authTime?: Date;
  /** The refresh token this request rotates: spent by the same statement that stores the new pair. */
  rotates?: string;
  /** A retry of a just-spent refresh token inside the grace window: this pair is answered again (decision 0028). */
  grace?: GracePair;
}

interface ModelClient {
  id: string;
  clientId: string;
  grants: string[];
  redirectUris: string[];
  row: ClientRecord;
}

const toModelClient = (client: ClientRecord): ModelClient => ({
  id: client.id,
  clientId: client.clientId,
  // A person-made app speaks only for the people who consent to it (decision 0037): no client_credentials.
  grants:
    client.clientType === 'confidential' && !client.developerId
      ? ['authorization_code', 'refresh_token', 'client_credentials']
      : ['authorization_code', 'refresh_token'],
  redirectUris: client.redirectUris,
  row: client,
});

export interface TokenEndpointAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * `POST /oauth/token` on @node-oauth/oauth2-server: authorization_code (+PKCE S256 only),
 * refresh_token (rotated; reuse revokes the family), client_credentials. Our model adds what
 * the library lacks: code replay revoking the code's tokens, race-safe rotation, ID tokens.
 */
@Injectable()
export class TokenEndpointService {
  private readonly logger = new Logger(TokenEndpointService.name);
  private readonly server: OAuth2Server;
  /** The client the library authenticated for the request being handled (getRefreshToken is not told it). */
  private readonly request = new AsyncLocalStorage<{ client?: ClientRecord; dpopJkt?: string; boundJkt?: string | null }>();

  constructor(
    private readonly em: EntityManager,
    private readonly clients: ClientsService,
    private readonly store: TokenStore,
    private readonly keys: SigningKeysService,
    private readonly events: EventBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.server = new OAuth2Server({
      model: this.model(),
      accessTokenLifetime: ACCESS_TOKEN_LIFETIME_SECONDS,
      refreshTokenLifetime: REFRESH_TOKEN_LIFETIME_SECONDS,
      allowExtendedTokenAttributes: true,
      alwaysIssueNewRefreshToken: true,
      // Public clients refresh and exchange codes without a secret; the model still refuses a
      // confidential client that leaves its secret out (RFC 9700 §2.3).
      requireClientAuthentication: { authorization_code: false, refresh_token: false, client_credentials: true },
    });
  }

  private model(): OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel & OAuth2Server.ClientCredentialsModel {
    const db = () => this.em.getKysely<OAuthServerDb>();
    return {
      getClient: async (clientId: string, clientSecret: string) => {
        const client = await this.clients.authenticate(clientId, clientSecret || undefined);
        const current = this.request.getStore();
        if (client && current) current.client = client;
        return client ? toModelClient(client) : false;
      },
      generateAccessToken: async () => newSecret(ACCESS_TOKEN_PREFIX),
      generateRefreshToken: async () => newSecret(REFRESH_TOKEN_PREFIX),
      getAccessToken: async () => false,

      getAuthorizationCode: async (code: string) => {
        if (!code.startsWith(CODE_PREFIX) || code.length > 200) return false;
        const row = await db()
          .selectFrom('oauth_codes as k')
          .innerJoin('oauth_grants as g', 'g.id', 'k.grant_id')
          .select([
            'k.id',
            'k.client_id',
            'k.user_id',
            'k.grant_id',
            'k.redirect_uri',
            'k.scopes',
            'k.code_challenge',
            'k.code_challenge_method',
            'k.nonce',
            'k.dpop_jkt',
            'k.auth_time',
            'k.expires_at',
            'k.used_at',
            'g.revoked_at as grant_revoked',
          ])
          .where('k.code_hash', '=', sha256(code))
          .executeTakeFirst();
        if (!row || row.grant_revoked) return false;
        if (row.used_at) {
          await this.codeReplayed(row.id);
          return false;
        }
        // RFC 9449 §10: a code bound with dpop_jkt is redeemed only with a proof of that key (nothing is spent otherwise).
        if (row.dpop_jkt && this.request.getStore()?.dpopJkt !== row.dpop_jkt) {
          throw new OAuthProtocolError('invalid_grant', msg('oauth.dpopKeyMismatch'));
        }
        const user: Subject = {
          id: row.user_id,
          grantId: row.grant_id,
          codeId: row.id,
          familyId: randomUUID(),
          nonce: row.nonce,
          authTime: new Date(row.auth_time),
        };
        return {
          authorizationCode: code,
          expiresAt: new Date(row.expires_at),
          redirectUri: row.redirect_uri,
          scope: row.scopes,
          client: { id: row.client_id, grants: [] },
          user,
          ...(row.code_challenge ? { codeChallenge: row.code_challenge, codeChallengeMethod: row.code_challenge_method ?? 'S256' } : {}),
        };
      },

      /** Single use: exactly one exchange marks the code; any later one is a replay. */
      revokeAuthorizationCode: async (code: OAuth2Server.AuthorizationCode) => {
        const spent = await db()
          .updateTable('oauth_codes')
          .set({ used_at: sql<Date>`now()` })
          .where('code_hash', '=', sha256(code.authorizationCode))
          .where('used_at', 'is', null)
          .returning('id')
          .execute();
        if (spent.length === 1) return true;
        await this.codeReplayed((code.user as Subject).codeId!);
        return false;
      },

      getRefreshToken: async (refreshToken: string) => {
        const info = await this.store.findRefresh(refreshToken);
        if (!info) {
          const row = await this.store.refreshRow(refreshToken);
          if (row?.used && !row.revoked) {
            // The same client again with the token it just spent (its answer may have been lost):
            // the same pair, not a reuse, inside the grace window (decision 0028).
            const client = this.request.getStore()?.client;
            const grace = client && client.id === row.clientRowId ? await this.store.gracePair(refreshToken, client.id) : null;
            if (grace) {
              this.checkRefreshKey(grace.dpopJkt);
              const user: Subject = { id: grace.userId, grantId: grace.grantId, codeId: grace.codeId, familyId: grace.familyId, grace };
              return { refreshToken, scope: grace.scopes, client: { id: row.clientRowId, grants: [] }, user };
            }
            await this.refreshReused(row.familyId);
          }
          return false;
        }
        this.checkRefreshKey(info.dpopJkt);
        const user: Subject = { id: info.userId, grantId: info.grantId, codeId: info.codeId, familyId: info.familyId };
        return {
          refreshToken,
          refreshTokenExpiresAt: info.expiresAt ?? undefined,
          scope: info.scopes,
          client: { id: info.clientRowId, grants: [] },
          user,
        };
      },

      /**
       * Rotation: the old refresh token is spent by the statement that stores the new pair
       * (saveToken, TokenStore.rotate), atomically; a loser of the race is a reuse.
       */
      revokeToken: async (token: OAuth2Server.RefreshToken | OAuth2Server.Token) => {
        if (!token.refreshToken) return false;
        const subject = token.user as Subject;
        // A grace retry spends nothing: its token was spent by the rotation whose pair it gets.
        if (!subject.grace) subject.rotates = token.refreshToken;
        return true;
      },

      getUserFromClient: async () => ({ id: null, clientOnly: true }) satisfies Subject,

      validateScope: async (user: OAuth2Server.User, client: OAuth2Server.Client, scope?: string[]) => {
        const subject = user as Subject;
        // client_credentials tokens speak for the app, and every scope of ours is about a person.
        if (subject.clientOnly) return scope && scope.length > 0 ? false : [];
        return scope ?? [];
      },

      saveToken: async (token: OAuth2Server.Token, client: OAuth2Server.Client, user: OAuth2Server.User) => {
        const subject = user as Subject;
        const modelClient = client as ModelClient;
        if (subject.grace) return this.graceAnswer(subject, modelClient, client, user);
        const scopes = token.scope ?? [];
        const current = this.request.getStore();
        const dpopJkt = current?.dpopJkt ?? null;
        if (current) current.boundJkt = dpopJkt;
        const row = {
          accessToken: token.accessToken,
          accessExpiresAt: token.accessTokenExpiresAt!,
          refreshToken: subject.clientOnly ? undefined : token.refreshToken,
          refreshExpiresAt: subject.clientOnly ? undefined : token.refreshTokenExpiresAt,
          clientRowId: modelClient.id,
          userId: subject.id,
          grantId: subject.grantId ?? null,
          codeId: subject.codeId ?? null,
          familyId: subject.familyId ?? randomUUID(),
          scopes,
          dpopJkt,
        };
        if (subject.rotates) {
          if (!(await this.store.rotate(subject.rotates, row))) {
            // Lost the race: the winner's pair is committed now. The same client inside the grace
            // window gets that pair too (decision 0028); otherwise this is a reuse (decision 0012).
            const grace = await this.store.gracePair(subject.rotates, modelClient.id);
            if (grace) {
              this.checkRefreshKey(grace.dpopJkt);
              return this.graceAnswer({ ...subject, grace }, modelClient, client, user);
            }
            await this.refreshReused(subject.familyId!);
            // What the library answers when revokeToken reports the spend failed.
            throw new OAuth2Server.InvalidGrantError('Invalid grant: refresh token is invalid or could not be revoked');
          }
        } else {
          await this.store.insert(row);
        }
        const saved: OAuth2Server.Token = { ...token, scope: scopes, client, user };
        if (subject.clientOnly) {
          delete saved.refreshToken;
          delete saved.refreshTokenExpiresAt;
        }
        if (subject.id && scopes.includes('openid')) saved.id_token = await this.idToken(subject, modelClient.clientId, scopes);
        return saved;
      },
    } as unknown as OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel & OAuth2Server.ClientCredentialsModel;
  }

  /** The pair a rotation of this token stored, answered again (with a new ID token when openid). */
  private async graceAnswer(subject: Subject, modelClient: ModelClient, client: OAuth2Server.Client, user: OAuth2Server.User): Promise<OAuth2Server.Token> {
    const grace = subject.grace!;
    const current = this.request.getStore();
    if (current) current.boundJkt = grace.dpopJkt;
    this.logger.debug({ familyId: grace.familyId }, 'Refresh token retried inside the grace window: the same pair answered again');
    const saved: OAuth2Server.Token = {
      accessToken: grace.accessToken,
      accessTokenExpiresAt: grace.accessExpiresAt,
      refreshToken: grace.refreshToken,
      ...(grace.refreshExpiresAt ? { refreshTokenExpiresAt: grace.refreshExpiresAt } : {}),
      scope: grace.scopes,
      client,
      user,
    };
    if (grace.userId && grace.scopes.includes('openid')) {
      saved.id_token = await this.idToken(
        { id: grace.userId, grantId: grace.grantId, codeId: grace.codeId, familyId: grace.familyId },
        modelClient.clientId,
        grace.scopes,
      );
    }
    return saved;
  }

  /**
   * RFC 9449 §5: a public client's refresh token is bound to its DPoP key, so a refresh must
   * prove that key; a confidential client's is not (its authentication constrains it already).
   */
  private checkRefreshKey(bound: string | null): void {
    const current = this.request.getStore();
    if (!bound || current?.client?.clientType !== 'public') return;
    if (!current.dpopJkt) throw new OAuthProtocolError('invalid_dpop_proof', msg('oauth.dpopProofMissing'));
    if (current.dpopJkt !== bound) throw new OAuthProtocolError('invalid_grant', msg('oauth.dpopKeyMismatch'));
  }

  private async codeReplayed(codeId: string): Promise<void> {
    await this.em
      .getKysely<OAuthServerDb>()
      .updateTable('oauth_codes')
      .set({ replayed_at: sql<Date>`now()` })
      .where('id', '=', codeId)
      .execute();
    const revoked = await this.store.revokeFromCode(codeId);
    this.logger.warn({ codeId, revoked }, 'Authorization code replayed: its tokens were revoked');
    await this.events.publish(new CodeReplayDetectedEvent(codeId, revoked));
  }

  private async refreshReused(familyId: string): Promise<void> {
    const revoked = await this.store.revokeFamily(familyId, 'refresh_reuse');
    this.logger.warn({ familyId, revoked }, 'Refresh token reused: the whole family was revoked');
    await this.events.publish(new RefreshReuseDetectedEvent(familyId, revoked));
  }

  private async idToken(subject: Subject, clientId: string, scopes: string[]): Promise<string> {
    const user = await this.queries.execute(new PersonProfileQuery(subject.id!));
    return this.keys.sign(
      {
        iss: this.config.appUrl,
        sub: subject.id!,
        aud: clientId,
        ...(subject.authTime ? { auth_time: Math.floor(subject.authTime.getTime() / 1000) } : {}),
        ...(subject.nonce ? { nonce: subject.nonce } : {}),
        ...(user && grantsUsername(scopes) ? { preferred_username: user.username, name: user.username } : {}),
        ...(user && grantsEmail(scopes) ? { email: user.email, email_verified: user.emailVerified } : {}),
      },
      ID_TOKEN_LIFETIME_SECONDS,
    );
  }

  /**
   * The request's parameters, checked before any rate limit counts it: each at most once and
   * printable, and a grant type we offer. RFC 9700 §2.4: no password grant (the library knows
   * it; we never offer it). Implicit has no token request. One client authentication method
   * (RFC 6749 §2.3), and Basic credentials in the same characters as the body's.
   */
  checkRequest(body: unknown, authorization?: string): void {
    const p = readParams(body, TOKEN_PARAMS);
    checkFormats(p, TOKEN_FORMATS);
    if (p.grant_type && !SUPPORTED_GRANTS.includes(p.grant_type)) {
      throw new OAuthProtocolError('unsupported_grant_type', msg('oauth.grantTypeUnsupported', { grantType: p.grant_type.slice(0, 60) }));
    }
    const credentials = clientCredentials(authorization, p);
    if (credentials.basic) checkFormats({ client_id: credentials.id || undefined, client_secret: credentials.secret || undefined }, TOKEN_FORMATS);
  }

  /** Runs the library's token handler on a parsed form body; protocol errors become OAuthProtocolError. */
  async handle(input: { headers: Record<string, string | string[] | undefined>; body: unknown; dpopJkt?: string }): Promise<TokenEndpointAnswer> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.headers)) if (typeof value === 'string') headers[name] = value;
    // RFC 6749 §2.3.1 form-encodes both parts before base64 (openid-client does: '_' becomes %5F);
    // the library's basic-auth parser does not decode them, so hand it the decoded pair.
    const basic = basicCredentials(headers.authorization);
    if (basic) headers.authorization = `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}`;
    const request = new OAuth2Server.Request({ method: 'POST', headers, query: {}, body: input.body ?? {} });
    const response = new OAuth2Server.Response({ headers: {} });
    const state: { dpopJkt?: string; boundJkt?: string | null } = { dpopJkt: input.dpopJkt };
    try {
      await this.request.run(state, () => this.server.token(request, response));
    } catch (error) {
      if (error instanceof OAuth2Server.OAuthError && !(error instanceof OAuth2Server.ServerError)) {
        const headers = response.headers as Record<string, string>;
        // A failed client authentication in the person's language, as at revocation and introspection.
        const text = error.name === 'invalid_client' ? msg('oauth.invalidClient') : libraryErrorText(error.message);
        throw new OAuthProtocolError(error.name as OAuthErrorCode, text, error.code, {
          ...(headers['www-authenticate'] ? { 'www-authenticate': headers['www-authenticate'] } : {}),
          'cache-control': 'no-store',
        });
      }
      throw (error as { inner?: unknown }).inner ?? error;
    }
    // The library adds every extra attribute of the saved token to the answer (the spent code
    // among them): only the RFC's members go out.
    const answer = response.body as Record<string, unknown>;
    const body = Object.fromEntries(TOKEN_ANSWER_MEMBERS.filter((name) => answer[name] !== undefined).map((name) => [name, answer[name]]));
    // RFC 9449 §5: a DPoP-bound access token is of type DPoP.
    if (state.boundJkt) body.token_type = 'DPoP';
    return { status: 200, body, headers: response.headers as Record<string, string> };
  }
}

/**
 * The library's token-endpoint errors are English sentences; each becomes our message in the
 * request's language (the code, RFC 6749's `error`, is unchanged). One it has not said before
 * gets a general sentence rather than English.
 */
export function libraryErrorText(message: string): Text {
  const param = /^(Missing|Invalid) parameter: `([a-z_]+)`$/.exec(message);
  if (param) return param[1] === 'Missing' ? msg('oauth.paramMissing', { param: param[2]! }) : msg('oauth.paramInvalid', { param: param[2]! });
  if (message.startsWith('Invalid grant: authorization code has expired')) return msg('oauth.tokenCodeExpired');
  if (message.startsWith('Invalid grant: authorization code')) return msg('oauth.tokenCodeInvalid');
  if (message.startsWith('Invalid grant: code verifier')) return msg('oauth.tokenCodeVerifierInvalid');
  if (message.startsWith('Invalid grant: refresh token has expired')) return msg('oauth.tokenRefreshExpired');
  if (message.startsWith('Invalid grant: refresh token')) return msg('oauth.tokenRefreshInvalid');
  if (message.includes('`redirect_uri`')) return msg('oauth.redirectUriMismatch');
  if (message.includes('`code_challenge_method`')) return msg('oauth.pkceS256Only');
  if (message.startsWith('Invalid scope')) return msg('oauth.tokenScopeInvalid');
  if (message.startsWith('Unauthorized client')) return msg('oauth.unauthorizedClientGrant');
  if (message.startsWith('Invalid request: content must be')) return msg('oauth.formBodyRequired');
  return msg('oauth.tokenRequestInvalid');
}
