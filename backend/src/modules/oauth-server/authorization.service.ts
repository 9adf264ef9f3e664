import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventBus, QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { sql, type Kysely } from 'kysely';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { AppGrant, AuthorizeAnswer, ConsentDecision, ConsentInfo, Language } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { KeyRing } from '../../core/crypto/key-ring.js';
import { AppError } from '../../core/http/app-error.js';
import { SessionPersonQuery, SessionStartQuery } from '../auth/public/queries.js';
import { AppAccessRevokedEvent, ConsentDeniedEvent, ConsentGivenEvent, GrantRevokedEvent } from './public/events.js';
import { ClientsService, redirectUriForbidden, redirectUriMatches } from './clients.service.js';
import type { OAuthServerDb } from './entities/index.js';
import type { ClientRecord } from './client-cache.js';
import { OAuthGrant } from './entities/oauth-grant.entity.js';
import { OAuthProtocolError, type OAuthErrorCode } from './oauth.errors.js';
import { checkFormats, readParams, type ParamFormat } from './params.js';
import { PushedRequests, REQUEST_URI_PREFIX } from './pushed-requests.js';
import { describeScopes, parseScope } from './scopes.js';
import { CODE_PREFIX, newSecret, sha256 } from './secrets.js';
import { TokenStore } from './token-store.service.js';
import { msg, render, type Message } from '../../core/i18n/messages.js';

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
  'dpop_jkt',
] as const;

/** What a pushed request may carry (RFC 9126): the authorization parameters, and the ones refused by name (so they are refused, not dropped). */
export const PUSHABLE_PARAMS: readonly string[] = [...AUTHORIZE_PARAMS, 'max_age', 'request', 'request_uri'];

/** The character rules of each parameter (RFC 6749 Appendix A, RFC 7636 §4.1): what the library would check halfway through. */
const AUTHORIZE_FORMATS: Readonly<Record<string, ParamFormat>> = {
  client_id: 'vschar',
  redirect_uri: 'uri',
  response_type: 'vschar',
  scope: 'nqschar',
  state: 'vschar',
  code_challenge: 'pkce',
  code_challenge_method: 'vschar',
  nonce: 'vschar',
  prompt: 'nqschar',
  response_mode: 'vschar',
  dpop_jkt: 'vschar',
};

const PROMPT_VALUES = ['none', 'login', 'consent'] as const;
type Prompt = (typeof PROMPT_VALUES)[number];
/** How long a sign-in started for `prompt=login`/`max_age` may take: as long as the sign-in's own state. */
export const LOGIN_TICKET_SECONDS = 600;

/** What a login ticket is made for: one authorization request, not just its app (decision 0033). */
function ticketBinding(
  client: ClientRecord,
  redirectUri: string,
  request: { requestUri?: string; codeChallenge?: string; nonce?: string; state?: string },
): string {
  return JSON.stringify([client.clientId, redirectUri, request.requestUri ?? '', request.codeChallenge ?? '', request.nonce ?? '', request.state ?? '']);
}

/** A checked authorization request: everything needed to ask for consent or to issue a code. */
export interface AuthorizationRequest {
  client: ClientRecord;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge?: string;
  nonce?: string;
  /** RFC 9126: the pushed request this came from (spent by the decision). */
  requestUri?: string;
  /** RFC 9449 §10: the DPoP key thumbprint the code is bound to. */
  dpopJkt?: string;
  /** OIDC `prompt` values (none alone, or login and/or consent). */
  prompt: ReadonlySet<Prompt>;
  /** OIDC `max_age` in seconds. */
  maxAge?: number;
  /** When a sign-in asked for by this request started (a valid `login_ticket`), in ms. */
  loginAskedAt?: number;
}

/**
 * An authorization error that goes back to the app: raised only after the client and its
 * redirect URI were checked (a bad client or URI never redirects).
 */
export class AuthorizationErrorRedirect extends Error {
  constructor(
    readonly redirectTo: string,
    readonly code: OAuthErrorCode,
    readonly reason: Message,
  ) {
    super('authorization error response');
  }
}

/** A web session as the authorization endpoint sees it: whose, and when it was signed in (auth_time). */
interface SessionAt {
  userId: string;
  authTime: Date;
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
    private readonly pushed: PushedRequests,
    private readonly events: EventBus,
    private readonly queries: QueryBus,
    private readonly keyRing: KeyRing,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get db() {
    return this.em.getKysely<OAuthServerDb>();
  }

  get issuer(): string {
    return this.config.appUrl;
  }

  /**
   * RFC 9126 §4: a `request_uri` of ours stands for the parameters its client pushed, and every
   * other parameter of the request is ignored (client_id must match). Other request_uri values
   * are not ours to read here. `pushing`: the body of `POST /oauth/par`, where none may be.
   */
  private async resolvePushed(source: unknown, pushing: boolean): Promise<{ params: unknown; requestUri?: string }> {
    const { request_uri: requestUri, client_id: clientId } = readParams(source, ['request_uri', 'client_id']);
    if (!requestUri) return { params: source };
    if (pushing) throw new OAuthProtocolError('invalid_request', msg('oauth.parRequestUriInside'));
    if (!requestUri.startsWith(REQUEST_URI_PREFIX)) return { params: source };
    if (!clientId) throw new OAuthProtocolError('invalid_request', msg('oauth.clientIdMissing'));
    const params = await this.pushed.load(requestUri, clientId);
    if (!params) throw new OAuthProtocolError('invalid_request_uri', msg('oauth.parUnknown'));
    return { params: { ...params, client_id: clientId }, requestUri };
  }

  /**
   * Every check of an authorization request; errors are JSON for the page, never a redirect.
   * Whatever passes here can be issued a code: `decide` stores nothing before this has run.
   */
  async check(source: unknown, options: { pushing?: boolean } = {}): Promise<AuthorizationRequest> {
    const { params, requestUri } = await this.resolvePushed(source, options.pushing ?? false);
    const p = readParams(params, AUTHORIZE_PARAMS);
    // The client and its redirect URI first (an unknown app is the clearest answer), then the rest.
    checkFormats({ client_id: p.client_id, redirect_uri: p.redirect_uri }, AUTHORIZE_FORMATS);
    if (!p.client_id) throw new OAuthProtocolError('invalid_request', msg('oauth.clientIdMissing'));
    const client = await this.clients.findActive(p.client_id);
    if (!client) throw new OAuthProtocolError('invalid_client', msg('oauth.unknownClient'), 400);
    if (client.requirePar && !requestUri && !options.pushing) throw new OAuthProtocolError('invalid_request', msg('oauth.parRequired'));
    if (client.redirectUris.length === 0) throw new OAuthProtocolError('invalid_request', msg('oauth.noRedirectUris'));
    if (!p.redirect_uri && client.redirectUris.length > 1) {
      throw new OAuthProtocolError('invalid_request', msg('oauth.redirectUriMissing'));
    }
    const redirectUri = p.redirect_uri ?? client.redirectUris[0]!;
    // RFC 6749 §3.1.2: no fragment (nor credentials), whether asked for or registered long ago.
    if (redirectUriForbidden(redirectUri)) throw new OAuthProtocolError('invalid_request', msg('oauth.redirectUriFragment'));
    if (!redirectUriMatches(client.redirectUris, redirectUri)) {
      throw new OAuthProtocolError('invalid_request', msg('oauth.redirectUriMismatch'));
    }
    // prompt, max_age and request objects from the request (or what was pushed), the login ticket from the page's query:
    // their errors go back to the app (the client and its redirect URI are checked), before the other parameters' formats.
    checkFormats({ state: p.state }, AUTHORIZE_FORMATS); // an error redirect carries it back
    const interaction = this.interaction(params, source, client, redirectUri, p.state);
    checkFormats(p, AUTHORIZE_FORMATS);
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
    if (p.dpop_jkt && !/^[A-Za-z0-9_-]{43}$/.test(p.dpop_jkt)) throw new OAuthProtocolError('invalid_request', msg('oauth.dpopJktInvalid'));
    if (p.code_challenge) {
      if ((p.code_challenge_method ?? 'plain') !== 'S256') {
        throw new OAuthProtocolError('invalid_request', msg('oauth.pkceS256Only'));
      }
    } else if (p.code_challenge_method) {
      throw new OAuthProtocolError('invalid_request', msg('oauth.codeChallengeMissing'));
    } else if (client.clientType === 'public') {
      throw new OAuthProtocolError('invalid_request', msg('oauth.pkceRequired'));
    }
    return {
      client,
      redirectUri,
      scopes,
      state: p.state,
      codeChallenge: p.code_challenge,
      nonce: p.nonce,
      requestUri,
      dpopJkt: p.dpop_jkt,
      ...interaction,
    };
  }

  /**
   * OIDC Core §3.1.2.1 and §6: `prompt`, `max_age` and our `login_ticket`; `request` and
   * `request_uri` refused (a PAR handle excepted). Errors go back to the app's checked redirect URI.
   */
  private interaction(params: unknown, query: unknown, client: ClientRecord, redirectUri: string, state: string | undefined) {
    const fail = (code: OAuthErrorCode, message: Message) =>
      new AuthorizationErrorRedirect(this.errorRedirect(redirectUri, state, code, message), code, message);
    // Refused whatever their shape or size: a request object is never read, nor fetched.
    const raw = params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
    const given = (value: unknown) => value !== undefined && value !== null && value !== '';
    if (given(raw.request)) throw fail('request_not_supported', msg('oauth.requestNotSupported'));
    const parHandle = typeof raw.request_uri === 'string' && raw.request_uri.startsWith(REQUEST_URI_PREFIX);
    if (given(raw.request_uri) && !parHandle) throw fail('request_uri_not_supported', msg('oauth.requestUriNotSupported'));
    const { prompt: promptParam, max_age: maxAgeParam } = readParams(params, ['prompt', 'max_age']);
    const p = { prompt: promptParam, max_age: maxAgeParam, login_ticket: readParams(query, ['login_ticket']).login_ticket };
    const values = (p.prompt ?? '').split(' ').filter(Boolean);
    if (values.some((value) => !(PROMPT_VALUES as readonly string[]).includes(value))) throw fail('invalid_request', msg('oauth.promptUnsupported'));
    const prompt = new Set(values as Prompt[]);
    if (prompt.has('none') && prompt.size > 1) throw fail('invalid_request', msg('oauth.promptNoneAlone'));
    let maxAge: number | undefined;
    if (p.max_age !== undefined) {
      if (!/^\d{1,9}$/.test(p.max_age)) throw fail('invalid_request', msg('oauth.maxAgeInvalid'));
      maxAge = Number(p.max_age);
    }
    const bound = readParams(params, ['code_challenge', 'nonce']);
    const binding = ticketBinding(client, redirectUri, {
      requestUri: readParams(query, ['request_uri']).request_uri,
      codeChallenge: bound.code_challenge,
      nonce: bound.nonce,
      state,
    });
    return { prompt, maxAge, loginAskedAt: this.readLoginTicket(p.login_ticket, binding) };
  }

  /**
   * A login ticket says "this request asked for a sign-in at time T" (`T.hmac` under the key
   * ring): a session started after T satisfies prompt=login and max_age. The page carries it
   * through the sign-in; it cannot make one up, an old one is worthless, and it speaks only for
   * the request it was made for (client, redirect URI, pushed request, PKCE challenge, nonce and
   * state: `ticketBinding`), so it cannot be carried over to another request of the same app.
   */
  private loginTicket(binding: string, at = Date.now()): string {
    return `${at.toString(36)}.${this.keyRing.keyedHash('oauth-login-ticket', `${at}|${binding}`)}`;
  }

  private readLoginTicket(ticket: string | undefined, binding: string): number | undefined {
    const match = ticket ? /^([0-9a-z]{1,12})\.[0-9a-f]{64}$/.exec(ticket) : null;
    if (!match) return undefined;
    const at = parseInt(match[1]!, 36);
    const age = Date.now() - at;
    if (!(age >= 0 && age <= LOGIN_TICKET_SECONDS * 1000)) return undefined;
    const expected = Buffer.from(this.loginTicket(binding, at));
    const given = Buffer.from(ticket!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? at : undefined;
  }

  /** Whether this session's sign-in is recent enough for the request (prompt=login, max_age). */
  private signedInRecently(request: AuthorizationRequest, authTime: Date): boolean {
    // At or after: a session's start is read back at millisecond precision, as the ticket's time is.
    if (request.loginAskedAt !== undefined && authTime.getTime() >= request.loginAskedAt) return true;
    if (request.prompt.has('login')) return false;
    return request.maxAge === undefined || Date.now() - authTime.getTime() <= request.maxAge * 1000;
  }

  /** An authorization error response (RFC 6749 §4.1.2.1) with state and iss (RFC 9207). */
  private errorRedirect(redirectUri: string, state: string | undefined, code: OAuthErrorCode, message: Message): string {
    return this.redirect(redirectUri, { error: code, error_description: render(message), state, iss: this.issuer });
  }

  /**
   * `GET /oauth/authorize` for the consent page: the question, or where to go without one. With
   * the page's session token the server decides (decision 0033): a sign-in (again) first when
   * prompt=login or max_age ask for it; a code at once when the person's grant covers the scopes
   * and prompt is not consent; with prompt=none never a question, an OIDC error instead.
   */
  async describe(source: unknown, language: Language = 'es', sessionToken?: string): Promise<AuthorizeAnswer> {
    let request: AuthorizationRequest;
    try {
      request = await this.check(source);
    } catch (error) {
      if (error instanceof AuthorizationErrorRedirect) return { redirect_to: error.redirectTo };
      throw error;
    }
    const info: ConsentInfo = {
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
    const session = sessionToken ? await this.sessionOf(sessionToken) : null;
    const silent = request.prompt.has('none');
    if (!session || !this.signedInRecently(request, session.authTime)) {
      if (silent) return { redirect_to: this.errorRedirect(request.redirectUri, request.state, 'login_required', msg('oauth.loginRequired')) };
      const ticket =
        request.prompt.has('login') || request.maxAge !== undefined ? this.loginTicket(ticketBinding(request.client, request.redirectUri, request)) : undefined;
      return { ...info, sign_in: { again: !!session, ...(ticket ? { login_ticket: ticket } : {}) } };
    }
    if (request.prompt.has('consent')) return info;
    const answer = await this.remembered(request, session);
    if (answer) return answer;
    if (silent) return { redirect_to: this.errorRedirect(request.redirectUri, request.state, 'consent_required', msg('oauth.consentRequired')) };
    return info;
  }

  /** The live session of the page's token and when it signed in, or null (unknown, ended). */
  private async sessionOf(token: string): Promise<SessionAt | null> {
    const live = await this.queries.execute(new SessionPersonQuery(token));
    if (!live) return null;
    const started = await this.queries.execute(new SessionStartQuery(live.sessionId));
    return started ? { userId: live.userId, authTime: started } : null;
  }

  /** Remembered consent, decided here: a code when the person's live grant covers every requested scope. */
  private async remembered(request: AuthorizationRequest, session: SessionAt): Promise<ConsentDecision | null> {
    const grant = await this.db
      .selectFrom('oauth_grants')
      .select(['id', 'scopes'])
      .where('user_id', '=', session.userId)
      .where('client_id', '=', request.client.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const granted = new Set<string>(grant ? (grant.scopes as unknown as string[]) : []);
    if (!grant || !request.scopes.every((scope) => granted.has(scope))) return null;
    return { redirect_to: await this.codeRedirect(request, { id: session.userId, grantId: grant.id, authTime: session.authTime }) };
  }

  private async codeRedirect(request: AuthorizationRequest, subject: { id: string; grantId: string; authTime: Date }): Promise<string> {
    await this.spendPushed(request);
    const url = new URL(await this.issueCode(this.db, request, subject));
    url.searchParams.set('iss', this.issuer); // RFC 9207
    return url.toString();
  }

  /** A pushed request is answered once, whichever the answer (decision 0035). */
  private async spendPushed(request: AuthorizationRequest): Promise<void> {
    if (request.requestUri && !(await this.pushed.spend(request.requestUri))) {
      throw new OAuthProtocolError('invalid_request_uri', msg('oauth.parUnknown'));
    }
  }

  private redirect(base: string, params: Record<string, string | undefined>): string {
    const url = new URL(base);
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    return url.toString();
  }

  /** The person's answer on the consent screen: where the browser goes next. */
  async decide(source: unknown, action: 'allow' | 'deny', user: ConsentingUser): Promise<ConsentDecision> {
    let request: AuthorizationRequest;
    try {
      request = await this.check(source);
    } catch (error) {
      if (error instanceof AuthorizationErrorRedirect) return { redirect_to: error.redirectTo };
      throw error;
    }
    const authTime = await this.sessionStart(user.sessionId);
    // The same rules as the question's: an answer cannot skip a sign-in the request asked for.
    if (!this.signedInRecently(request, authTime)) {
      if (request.prompt.has('none'))
        return { redirect_to: this.errorRedirect(request.redirectUri, request.state, 'login_required', msg('oauth.loginRequired')) };
      throw new OAuthProtocolError('login_required', msg('oauth.loginAgain'), 403);
    }
    if (request.prompt.has('none') && action === 'allow') {
      // prompt=none shows nothing, so nothing was asked: only remembered consent can answer yes.
      const answer = await this.remembered(request, { userId: user.id, authTime });
      return answer ?? { redirect_to: this.errorRedirect(request.redirectUri, request.state, 'consent_required', msg('oauth.consentRequired')) };
    }
    if (action === 'deny') {
      await this.spendPushed(request);
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
    await this.spendPushed(request);
    // The grant and its code commit together or not at all, and the audit log hears of the
    // consent only once the code exists: a failure leaves nothing behind.
    const { grantId, location } = await this.em.fork().transactional(async (tx) => {
      const db = tx.getKysely<OAuthServerDb>();
      const grantId = await this.remember(db, user.id, request.client, request.scopes);
      return { grantId, location: await this.issueCode(db, request, { id: user.id, grantId, authTime }) };
    });
    await this.events.publish(new ConsentGivenEvent(request.client.clientId, request.scopes, grantId));
    const url = new URL(location);
    url.searchParams.set('iss', this.issuer); // RFC 9207
    return { redirect_to: url.toString() };
  }

  private async sessionStart(sessionId: string): Promise<Date> {
    return (await this.queries.execute(new SessionStartQuery(sessionId))) ?? new Date();
  }

  /** The grant for this person and app now covers these scopes (added to what it had, unless it was revoked). */
  private async remember(db: Kysely<OAuthServerDb>, userId: string, client: ClientRecord, scopes: string[]): Promise<string> {
    const row = await db
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

  private async issueCode(db: Kysely<OAuthServerDb>, request: AuthorizationRequest, subject: { id: string; grantId: string; authTime: Date }): Promise<string> {
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
              dpop_jkt: request.dpopJkt ?? null,
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
    try {
      await server.authorize(req, res, { authenticateHandler: { handle: () => subject } });
    } catch (error) {
      // `check` applies every rule the library does, so this is not expected; should a rule be
      // missed, it is the request's fault (a 400), and the transaction takes the grant back.
      if (error instanceof OAuth2Server.OAuthError && !(error instanceof OAuth2Server.ServerError)) {
        this.logger.warn({ error: error.message }, 'The library refused a checked authorization request');
        throw new OAuthProtocolError('invalid_request', msg('oauth.codeNotIssued'));
      }
      throw (error as { inner?: unknown }).inner ?? error;
    }
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

  /**
   * Everything an app holds (decision 0050): every live grant of every person (so coming back
   * needs their consent again), its unexchanged codes, and every live token issued to it, for
   * people or for itself. Used when an admin suspends the app and when its developer asks to
   * erase their account. Safe to run again; the audit log hears of it with the counts.
   */
  async revokeAppAccess(clientRowId: string, reason: 'suspended' | 'developer_erasure'): Promise<{ grants: number; tokens: number }> {
    const grants = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now(), updated_at: now() })
      .where('client_id', '=', clientRowId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    await this.db
      .updateTable('oauth_codes')
      .set((eb) => ({ used_at: eb.fn.coalesce('used_at', now()) }))
      .where('client_id', '=', clientRowId)
      .execute();
    // Grants first: a token a refresh is issuing meanwhile is then revoked at birth (TokenStore.insert).
    let tokens = await this.tokens.revokeAllOfClient(clientRowId);
    for (const { id } of grants) tokens += await this.tokens.revokeGrant(id);
    const client = await this.db.selectFrom('oauth_clients').select('client_id').where('id', '=', clientRowId).executeTakeFirst();
    this.logger.log({ clientRowId, reason, grants: grants.length, tokens }, 'Every grant and token of an app revoked');
    if (client && (reason === 'suspended' || grants.length + tokens > 0))
      await this.events.publish(new AppAccessRevokedEvent(client.client_id, reason, grants.length, tokens));
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
