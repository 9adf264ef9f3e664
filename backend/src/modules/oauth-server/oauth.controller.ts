import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CONSENT_ACTIONS, ConsentDecisionSchema, ConsentInfoSchema, type Language } from '@life/contracts';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { AppTokenOnly } from '../../core/http/app-token.decorator.js';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { Public } from '../../core/http/public.decorator.js';
import { RateLimitService, type RateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { AppTokenGuard, type AppRequest } from './app-token.guard.js';
import { AuthorizationService } from './authorization.service.js';
import { OAuthProtocolError } from './oauth.errors.js';
import { readParams } from './params.js';
import { ProtocolService } from './protocol.service.js';
import { SigningKeysService } from './signing-keys.service.js';
import { TokenEndpointService } from './token-endpoint.service.js';

const param = z.string().max(4096);
const AuthorizeQuerySchema = z
  .object({
    client_id: param,
    redirect_uri: param,
    response_type: param,
    scope: param,
    state: param,
    code_challenge: param,
    code_challenge_method: param,
    nonce: param,
    prompt: param,
  })
  .partial()
  .loose();
const AuthorizeBodySchema = AuthorizeQuerySchema.extend({ action: z.enum(CONSENT_ACTIONS) });
const TokenBodySchema = z
  .object({
    grant_type: z.string(),
    code: param,
    redirect_uri: param,
    code_verifier: param,
    refresh_token: param,
    scope: param,
    client_id: param,
    client_secret: param,
  })
  .partial()
  .loose();
const TokenAnswerSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number(),
    refresh_token: z.string().optional(),
    scope: z.string().optional(),
    id_token: z.string().optional(),
  })
  .meta({ id: 'TokenAnswer' });
const TokenOpBodySchema = z.object({ token: param, token_type_hint: param, client_id: param, client_secret: param }).partial().loose();
const IntrospectionSchema = z.object({ active: z.boolean() }).loose().meta({ id: 'Introspection' });
const JsonObjectSchema = z.record(z.string(), z.unknown());

type Headers = FastifyRequest['headers'];
const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token', 'client_credentials'];
const noStore = (reply: FastifyReply) => void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

/** The authorization server's protocol endpoints. */
@Controller()
export class OAuthController {
  private readonly perClient: RateLimit;
  private readonly authFailures: RateLimit;

  constructor(
    private readonly authorization: AuthorizationService,
    private readonly tokens: TokenEndpointService,
    private readonly protocol: ProtocolService,
    private readonly keys: SigningKeysService,
    rateLimits: RateLimitService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.perClient = rateLimits.create({ name: 'oauth:token', points: config.oauth.tokenRatePerMinute, durationSeconds: 60 });
    this.authFailures = rateLimits.create({ name: 'oauth:client-auth-failures', points: config.oauth.clientAuthFailuresPer15Min, durationSeconds: 900 });
  }

  /** Rate limits of the token-side endpoints: per client and IP, and failed client authentications per IP. */
  private async guarded<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const clientHint = typeof body.client_id === 'string' ? body.client_id : (request.headers.authorization ?? '').slice(0, 200);
    await this.authFailures.check(request.ip);
    await this.perClient.consume(`${request.ip}|${clientHint}`);
    try {
      return await run();
    } catch (error) {
      if (error instanceof OAuthProtocolError && error.code === 'invalid_client') await this.authFailures.consume(request.ip);
      throw error;
    }
  }

  @Get('oauth/authorize')
  @Public()
  @Contract({
    summary: 'What the consent screen shows: the app and the scopes it asks for (a browser navigation gets the page)',
    tags: ['oauth'],
    access: 'public',
    query: AuthorizeQuerySchema,
    response: ConsentInfoSchema,
  })
  describe(@Query() query: Record<string, unknown>, @RequestLanguage() language: Language) {
    return this.authorization.describe(query, language);
  }

  @Post('oauth/authorize')
  @HttpCode(200)
  @Contract({
    summary: 'The person allows or denies: answers where the browser goes next (code, state and iss; or error=access_denied)',
    tags: ['oauth'],
    access: 'session',
    body: AuthorizeBodySchema,
    response: ConsentDecisionSchema,
  })
  async decide(@Body() body: z.infer<typeof AuthorizeBodySchema>, @CurrentUser() user: AuthenticatedUser, @Res({ passthrough: true }) reply: FastifyReply) {
    noStore(reply);
    return this.authorization.decide(body, body.action, { id: user.id, sessionId: user.sessionId });
  }

  @Post('oauth/token')
  @Public()
  @HttpCode(200)
  @Contract({
    summary: 'Token endpoint: authorization_code (PKCE S256), refresh_token (rotating), client_credentials',
    tags: ['oauth'],
    access: 'public',
    body: TokenBodySchema,
    bodyEncoding: 'form',
    response: TokenAnswerSchema,
    errors: [401, 415, 429],
  })
  async token(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    noStore(reply);
    const p = readParams(request.body, ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope', 'client_id', 'client_secret']);
    // RFC 9700 §2.4: no password grant (the library knows it; we never offer it). Implicit has no token request.
    if (p.grant_type && !SUPPORTED_GRANTS.includes(p.grant_type)) {
      throw new OAuthProtocolError('unsupported_grant_type', `grant_type ${p.grant_type.slice(0, 60)} no está admitido.`);
    }
    const answer = await this.guarded(request, () => this.tokens.handle({ headers: request.headers as Headers as Record<string, string>, body: request.body }));
    return answer.body;
  }

  @Post('oauth/revoke')
  @Public()
  @HttpCode(200)
  @Contract({
    summary: 'RFC 7009 revocation; a refresh token takes its whole family with it',
    tags: ['oauth'],
    access: 'public',
    body: TokenOpBodySchema,
    bodyEncoding: 'form',
    errors: [401, 415, 429],
  })
  async revoke(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    noStore(reply);
    this.requireForm(request);
    await this.guarded(request, () => this.protocol.revoke(request.headers.authorization, request.body));
    return {};
  }

  @Post('oauth/introspect')
  @Public()
  @HttpCode(200)
  @Contract({
    summary: 'RFC 7662 introspection, for confidential clients about their own tokens',
    tags: ['oauth'],
    access: 'public',
    body: TokenOpBodySchema,
    bodyEncoding: 'form',
    response: IntrospectionSchema,
    errors: [401, 415, 429],
  })
  async introspect(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    noStore(reply);
    this.requireForm(request);
    return this.guarded(request, () => this.protocol.introspect(request.headers.authorization, request.body));
  }

  private requireForm(request: FastifyRequest) {
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      throw new OAuthProtocolError('invalid_request', 'El cuerpo debe ser application/x-www-form-urlencoded.');
    }
  }

  @Get('oauth/userinfo')
  @AppTokenOnly()
  @UseGuards(AppTokenGuard)
  @Contract({ summary: 'OpenID Connect userinfo (needs scope openid)', tags: ['oauth'], access: 'app', response: JsonObjectSchema, errors: [403] })
  userinfo(@Req() request: AppRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    noStore(reply);
    return this.protocol.userinfo(request.appToken!);
  }

  @Post('oauth/userinfo')
  @HttpCode(200)
  @AppTokenOnly()
  @UseGuards(AppTokenGuard)
  @Contract({ summary: 'OpenID Connect userinfo, POST form', tags: ['oauth'], access: 'app', response: JsonObjectSchema, errors: [403] })
  userinfoPost(@Req() request: AppRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.userinfo(request, reply);
  }

  @Get('oauth/jwks')
  @Public()
  @Contract({ summary: 'Public keys that sign ID tokens (JWKS)', tags: ['oauth'], access: 'public', response: JsonObjectSchema })
  jwks() {
    return this.keys.jwks();
  }

  @Get('.well-known/oauth-authorization-server')
  @Public()
  @Contract({ summary: 'RFC 8414 authorization server metadata', tags: ['oauth'], access: 'public', response: JsonObjectSchema })
  metadata() {
    return this.protocol.metadata(false);
  }

  @Get('.well-known/openid-configuration')
  @Public()
  @Contract({ summary: 'OpenID Connect discovery', tags: ['oauth'], access: 'public', response: JsonObjectSchema })
  openidConfiguration() {
    return this.protocol.metadata(true);
  }
}
