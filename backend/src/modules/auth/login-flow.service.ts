import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { CommandBus, EventBus, QueryBus } from '@nestjs/cqrs';
import type { LoginSuccess } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { outboundFetch, type OutboundFetch } from '../../core/http/outbound-fetch.js';
import { AppError } from '../../core/http/app-error.js';
import { RateLimitService, type RateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { ApplyConfiguredRoleCommand, CreatePersonCommand } from '../users/public/commands.js';
import { IsConfiguredAdminQuery, PersonAccountQuery, PersonByEmailQuery, ProfileQuery, type PersonAccount } from '../users/public/queries.js';
import { appleClientSecret } from './apple-client-secret.js';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import { BetaInvitesService } from './beta-invites.service.js';
import { DEV_CLIENT_ID, DevIdpService } from './dev-idp/dev-idp.service.js';
import { UserIdentity } from './entities/user-identity.entity.js';
import { familyOf, type ProviderFamily } from './login-providers.defaults.js';
import { loginCallbackUrl, LoginProvidersService } from './login-providers.service.js';
import { microsoftEmailVerdict, microsoftEmailVerified } from './microsoft-email.js';
import { hashBrowserBinding, LoginStateStore, type LoginState } from './login-state.store.js';
import { OidcVerifier } from './oidc-verifier.js';
import { SessionService } from './session.service.js';
import { SignedInEvent, SignInRefusedEvent } from './public/events.js';
import { msg } from '../../core/i18n/messages.js';

interface EffectiveProvider {
  name: string;
  family: ProviderFamily;
  /** Which claims vouch for the e-mail: `email_verified`, or Microsoft's rule (decision 0039). */
  emailRule: 'oidc' | 'microsoft';
  clientId: string;
  clientSecret?: string;
  baseUrl: string;
  authUrl: string;
  tokenUrl: string;
  userUrl?: string;
  scopes: string;
  redirectUri: string;
}

interface ProviderIdentity {
  subject: string;
  email?: string;
  emailVerified: boolean;
  usernameHint?: string;
}

const TIMEOUT_MS = 10_000;
const b64url = (buffer: Buffer) => buffer.toString('base64url');

async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

/**
 * Sign-in with an outside identity provider: authorization code flow with a
 * single-use state bound to the browser, PKCE S256, and an OIDC nonce.
 */
@Injectable()
export class LoginFlowService {
  /** Sign-in attempts (starts and callbacks) per client IP: slows down state guessing and provider abuse. */
  private readonly attempts: RateLimit;
  private readonly logger = new Logger('LoginFlow');
  /** Login provider URLs reach public addresses only in production (decision 0050): checked at connection time. */
  private readonly fetch: OutboundFetch;

  constructor(
    private readonly em: EntityManager,
    private readonly providers: LoginProvidersService,
    private readonly states: LoginStateStore,
    private readonly oidc: OidcVerifier,
    private readonly devIdp: DevIdpService,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly invites: BetaInvitesService,
    private readonly sessions: SessionService,
    private readonly events: EventBus,
    rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.attempts = rateLimits.create({ name: 'sign-in:ip', points: config.signInRatePer10Min, durationSeconds: 600 });
    this.fetch = outboundFetch(config.allowPrivateServiceUrls);
  }

  /** 'Iniciar sesión con …': counts the attempt, then where the browser goes and what binds it. */
  async begin(name: string, returnTo: string | undefined, ip: string): Promise<{ url: string; browserBinding: string }> {
    await this.attempts.consume(ip);
    return this.start(name, returnTo);
  }

  /**
   * The provider's answer: counts the attempt, signs the person in, and tells the audit log
   * either way (signed in, or refused with the code the person was answered with).
   */
  async complete(
    name: string,
    answer: { code: string; state: string; iss?: string },
    browserBinding: string | undefined,
    meta: { ip: string; userAgent?: string },
  ): Promise<LoginSuccess> {
    try {
      await this.attempts.consume(meta.ip);
      const success = await this.finish(name, answer, browserBinding, meta);
      await this.events.publish(new SignedInEvent(success.user.id, success.user.email, name));
      return success;
    } catch (error) {
      await this.events.publish(new SignInRefusedEvent(name, error instanceof AppError ? error.code : 'error'));
      throw error;
    }
  }

  private async effective(name: string): Promise<EffectiveProvider> {
    const family = familyOf(name);
    const row = family ? await this.providers.findByName(name) : null;
    if (!family || !row) throw new AuthError(AuthErrorCode.UnknownProvider, msg('auth.unknownLoginProvider', { provider: name }));
    const redirectUri = loginCallbackUrl(row, this.config.appUrl);
    if (!row.appId) {
      if (!this.devIdp.enabled) throw new AuthError(AuthErrorCode.ProviderUnavailable, msg('auth.loginProviderNotConfigured', { provider: name }));
      const { issuer, clientSecret } = await this.devIdp.endpoint();
      return {
        name,
        family: 'oidc',
        emailRule: 'oidc',
        clientId: DEV_CLIENT_ID,
        clientSecret,
        baseUrl: issuer,
        authUrl: `${issuer}/auth`,
        tokenUrl: `${issuer}/token`,
        scopes: 'openid email profile',
        redirectUri: this.devIdp.redirectUri(name),
      };
    }
    if (!row.authUrl || !row.tokenUrl || !row.baseUrl)
      throw new AuthError(AuthErrorCode.ProviderUnavailable, msg('auth.loginProviderMissingUrls', { provider: name }));
    return {
      name,
      family,
      emailRule: name === 'microsoft' ? 'microsoft' : 'oidc',
      clientId: row.appId,
      clientSecret: this.providers.decryptSecret(row),
      baseUrl: row.baseUrl,
      authUrl: row.authUrl,
      tokenUrl: row.tokenUrl,
      userUrl: row.userUrl ?? undefined,
      scopes: row.scopes ?? '',
      redirectUri,
    };
  }

  /** Where to send the browser, and the value of its binding cookie. */
  async start(name: string, returnTo: string | undefined): Promise<{ url: string; browserBinding: string }> {
    const provider = await this.effective(name);
    const codeVerifier = b64url(randomBytes(32));
    const nonce = b64url(randomBytes(16));
    const browserBinding = b64url(randomBytes(32));
    const state = await this.states.create({ provider: name, codeVerifier, nonce, browserHash: hashBrowserBinding(browserBinding), returnTo });
    const url = new URL(provider.authUrl);
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: provider.clientId,
      redirect_uri: provider.redirectUri,
      state,
      code_challenge: b64url(createHash('sha256').update(codeVerifier).digest()),
      code_challenge_method: 'S256',
    };
    if (provider.scopes) params.scope = provider.scopes;
    if (provider.family !== 'github') params.nonce = nonce;
    if (provider.family === 'apple') params.response_mode = 'form_post';
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return { url: url.toString(), browserBinding };
  }

  /** Apple POSTs the result; keep its one-time name and continue on the SPA page with GET. */
  async acceptFormPost(name: string, form: { code?: string; state?: string; user?: string; error?: string }): Promise<string> {
    if (familyOf(name) !== 'apple') throw new AuthError(AuthErrorCode.UnknownProvider, `${name} does not post its answer.`);
    if (form.error || !form.code || !form.state) return '/';
    const state = await this.states.peek(form.state);
    if (state && state.provider === name && form.user) {
      try {
        const user = JSON.parse(form.user) as { name?: { firstName?: string; lastName?: string } };
        const fullName = [user.name?.firstName, user.name?.lastName].filter(Boolean).join(' ').slice(0, 64);
        if (fullName) await this.states.update(form.state, { ...state, appleName: fullName });
      } catch {
        // A malformed optional name is ignored; the sign-in goes on without it.
      }
    }
    const query = new URLSearchParams({ code: form.code, state: form.state });
    return `/login/${name}/callback?${query.toString()}`;
  }

  async finish(
    name: string,
    answer: { code: string; state: string; iss?: string },
    browserBinding: string | undefined,
    meta: { ip?: string; userAgent?: string },
  ): Promise<LoginSuccess> {
    // The browser binding is checked BEFORE the state is spent (peek, then GETDEL): a callback URL
    // replayed from another browser (no cookie, or another one) is refused and leaves the state
    // for the browser that started the sign-in, so seeing a pending callback URL cancels nothing.
    const belongs = (candidate: LoginState | undefined): candidate is LoginState =>
      !!candidate && candidate.provider === name && !!browserBinding && hashBrowserBinding(browserBinding) === candidate.browserHash;
    if (!belongs(await this.states.peek(answer.state))) throw new AuthError(AuthErrorCode.InvalidState, msg('auth.loginLinkExpired'));
    // Single use: of two callbacks from the rightful browser at once, only the one that spends it goes on.
    const state = await this.states.consume(answer.state);
    if (!belongs(state)) throw new AuthError(AuthErrorCode.InvalidState, msg('auth.loginLinkExpired'));
    const provider = await this.effective(name);
    const trimmed = (url: string) => url.replace(/\/$/, '');
    if (answer.iss && provider.family !== 'github' && !provider.baseUrl.includes('{') && trimmed(answer.iss) !== trimmed(provider.baseUrl)) {
      throw new AuthError(AuthErrorCode.InvalidState, msg('auth.issuerMismatch'));
    }
    const tokens = await this.exchange(provider, answer.code, state.codeVerifier);
    const identity = await this.identify(provider, tokens, state.nonce, state.appleName);
    const person = await this.resolveUser(name, identity);
    const authToken = await this.sessions.create(person.id, meta);
    const user = await this.queries.execute(new ProfileQuery(person));
    return { authToken, user, ...(state.returnTo ? { returnTo: state.returnTo } : {}) };
  }

  private async exchange(provider: EffectiveProvider, code: string, codeVerifier: string): Promise<Record<string, unknown>> {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: provider.redirectUri,
      client_id: provider.clientId,
      code_verifier: codeVerifier,
    });
    if (provider.family === 'apple') {
      if (!provider.clientSecret) throw new AuthError(AuthErrorCode.ProviderUnavailable, msg('auth.appleKeyMissing'));
      body.set('client_secret', await appleClientSecret(provider.clientSecret, provider.clientId, provider.baseUrl));
    } else if (provider.clientSecret) {
      body.set('client_secret', provider.clientSecret);
    }
    let response: Response;
    try {
      response = await this.fetch(provider.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new AuthError(AuthErrorCode.ProviderError, `${provider.name} did not answer the token request.`);
    }
    const answer = await readJson(response);
    if (!response.ok || typeof answer.error === 'string' || typeof answer.access_token !== 'string') {
      const reason = typeof answer.error === 'string' ? answer.error : `HTTP ${response.status}`;
      throw new AuthError(AuthErrorCode.ProviderError, `${provider.name} refused the sign-in code (${reason.slice(0, 80)}).`);
    }
    return answer;
  }

  private async identify(provider: EffectiveProvider, tokens: Record<string, unknown>, nonce: string, appleName?: string): Promise<ProviderIdentity> {
    if (provider.family === 'github') return this.identifyGithub(provider, String(tokens.access_token));
    if (typeof tokens.id_token !== 'string') throw new AuthError(AuthErrorCode.InvalidIdToken, `${provider.name} sent no id_token.`);
    const idClaims = await this.oidc.verify(tokens.id_token, { baseUrl: provider.baseUrl, audience: provider.clientId, nonce });
    let claims = idClaims;
    if (typeof claims.email !== 'string' && provider.userUrl)
      claims = { ...claims, ...(await this.userinfo(provider.userUrl, String(tokens.access_token), String(claims.sub))) };
    let verified: boolean;
    if (provider.emailRule === 'microsoft') {
      // Microsoft never sends email_verified: personal accounts, or xms_edov in the ID token (decision 0039).
      const verdict = microsoftEmailVerdict(idClaims);
      verified = microsoftEmailVerified(verdict);
      if (verdict === 'no_edov_claim') {
        this.logger.warn(
          'A Microsoft work or school account signed in without the xms_edov claim: its e-mail cannot count as verified. Add the optional claim xms_edov to the ID token in Entra (docs/identity.md).',
        );
      }
    } else {
      verified = claims.email_verified === true || claims.email_verified === 'true';
    }
    return {
      subject: String(claims.sub),
      email: typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined,
      emailVerified: verified,
      usernameHint:
        appleName ??
        (typeof claims.preferred_username === 'string' ? claims.preferred_username.split('@')[0] : typeof claims.name === 'string' ? claims.name : undefined),
    };
  }

  /** Claims some providers leave out of the id_token; only trusted when about the same subject. */
  private async userinfo(url: string, accessToken: string, subject: string): Promise<Record<string, unknown>> {
    const response = await this.fetch(url, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).catch(() => undefined);
    if (!response?.ok) return {};
    const info = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return info.sub === subject ? { email: info.email, email_verified: info.email_verified } : {};
  }

  private async identifyGithub(provider: EffectiveProvider, accessToken: string): Promise<ProviderIdentity> {
    if (!provider.userUrl) throw new AuthError(AuthErrorCode.ProviderUnavailable, msg('auth.githubUserUrlMissing'));
    const headers = { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'Life' };
    const get = async (url: string) => {
      const response = await this.fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => undefined);
      if (!response?.ok) throw new AuthError(AuthErrorCode.ProviderError, msg('auth.githubNoAccount'));
      return (await response.json()) as unknown;
    };
    const profile = (await get(provider.userUrl)) as { id?: unknown; login?: unknown };
    if (typeof profile.id !== 'number' && typeof profile.id !== 'string') throw new AuthError(AuthErrorCode.ProviderError, msg('auth.githubNoAccountId'));
    const emails = (await get(`${provider.userUrl.replace(/\/$/, '')}/emails`)) as { email?: unknown; primary?: unknown; verified?: unknown }[];
    const verified = Array.isArray(emails) ? emails.filter((e) => e.verified === true && typeof e.email === 'string') : [];
    const chosen = verified.find((e) => e.primary === true) ?? verified[0];
    return {
      subject: String(profile.id),
      email: chosen ? String(chosen.email).toLowerCase() : undefined,
      emailVerified: Boolean(chosen),
      usernameHint: typeof profile.login === 'string' ? profile.login : undefined,
    };
  }

  /** Known identity → its person; else link by verified e-mail; else a new account (beta rules). Users keeps the accounts. */
  private async resolveUser(provider: string, identity: ProviderIdentity): Promise<PersonAccount> {
    const known = await this.em.findOne(UserIdentity, { provider, subject: identity.subject });
    if (known) {
      const person = await this.queries.execute(new PersonAccountQuery(known.user.id));
      if (person) refuseIfBeingErased(person);
      known.lastLoginAt = new Date();
      if (identity.email) known.email = identity.email;
      await this.em.flush();
      return this.commands.execute(new ApplyConfiguredRoleCommand(known.user.id));
    }
    if (!identity.email || !identity.emailVerified) {
      throw new AuthError(AuthErrorCode.UnverifiedEmail, msg('auth.emailNotVerified'));
    }
    let person = await this.queries.execute(new PersonByEmailQuery(identity.email));
    if (person) refuseIfBeingErased(person);
    if (!person) {
      if (
        this.invites.betaMode &&
        !(await this.queries.execute(new IsConfiguredAdminQuery(identity.email))) &&
        !(await this.invites.isInvited(identity.email))
      ) {
        throw new AuthError(AuthErrorCode.NotInvited, msg('auth.notInvited'));
      }
      person = await this.commands.execute(new CreatePersonCommand({ email: identity.email, emailVerified: true, usernameHint: identity.usernameHint }));
    }
    this.em.create(UserIdentity, { provider, subject: identity.subject, user: person.id, email: identity.email });
    await this.em.flush();
    return this.commands.execute(new ApplyConfiguredRoleCommand(person.id));
  }
}

/** An account whose erasure is under way signs nobody in (the same person can start afresh once it is gone). */
function refuseIfBeingErased(person: Pick<PersonAccount, 'erasureRequestedAt'>): void {
  if (person.erasureRequestedAt) {
    throw new AuthError(AuthErrorCode.AccountBeingErased, msg('auth.accountBeingErased'));
  }
}
