import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AuthorizeAnswerSchema, ConsentDecisionSchema, EndSessionInfoSchema, type Language } from '@life/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppTokenOnly } from '../../core/http/app-token.decorator.js';
import { bearerToken } from '../../core/http/bearer-token.js';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { Public } from '../../core/http/public.decorator.js';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import { AppTokenGuard, type AppRequest } from './app-token.guard.js';
import { END_SESSION_PARAMS } from './logout.service.js';
import { OAuthProtocolError } from './oauth.errors.js';
import { readParams } from './params.js';
import {
  AuthorizeBodySchema,
  AuthorizeQuerySchema,
  EndSessionQuerySchema,
  IntrospectionSchema,
  JsonObjectSchema,
  ParAnswerSchema,
  ParBodySchema,
  TokenAnswerSchema,
  TokenBodySchema,
  TokenOpBodySchema,
} from './oauth.schemas.js';
import { DecideConsentCommand, IssueTokenCommand, PushAuthorizationRequestCommand, RevokeTokenCommand, type TokenEndpointCall } from './public/commands.js';
import { ConsentInfoQuery, DiscoveryQuery, EndSessionInfoQuery, IntrospectTokenQuery, JwksQuery, UserInfoQuery } from './public/queries.js';
import { msg } from '../../core/i18n/messages.js';

const noStore = (reply: FastifyReply) => void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

/** What a token-side endpoint hands its command: the caller's IP, the headers and the parsed form. */
const callOf = (request: FastifyRequest): TokenEndpointCall => ({ ip: request.ip, headers: request.headers, body: request.body });

/** The authorization server's protocol endpoints: HTTP in, a command or query out (the rules are the services'). */
@Controller()
export class OAuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('oauth/authorize')
  @Public()
  @Contract({
    summary:
      'What the consent screen shows (the app and the scopes it asks for), or redirect_to when the server answers without asking: remembered consent, prompt=none, OIDC errors. Optional session bearer. A browser navigation gets the page',
    tags: ['oauth'],
    access: 'public',
    query: AuthorizeQuerySchema,
    response: AuthorizeAnswerSchema,
  })
  describe(
    @Query() query: Record<string, unknown>,
    @RequestLanguage() language: Language,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // The answer may carry a code or depend on the session: never cached.
    noStore(reply);
    return this.queries.execute(new ConsentInfoQuery(query, language, bearerToken(request.headers.authorization)));
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
    return this.commands.execute(new DecideConsentCommand(body, body.action, { id: user.id, sessionId: user.sessionId }));
  }

  @Get('oauth/logout')
  @Public()
  @Contract({
    summary: 'RP-initiated logout: what the sign-out page needs (the app and where to go after); a browser navigation gets the page',
    tags: ['oauth'],
    access: 'public',
    query: EndSessionQuerySchema,
    response: EndSessionInfoSchema,
  })
  endSession(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    noStore(reply);
    return this.queries.execute(new EndSessionInfoQuery(query));
  }

  @Post('oauth/logout')
  @Public()
  @Contract({
    summary: 'RP-initiated logout sent as a form: continues on the sign-out page with the same parameters',
    tags: ['oauth'],
    access: 'public',
    body: EndSessionQuerySchema,
    bodyEncoding: 'form',
    successStatus: 303,
    produces: 'Redirect to the sign-out page',
    errors: [415],
  })
  endSessionForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    this.requireForm(request);
    // Only the known parameters, each checked, go on to the page (GET /oauth/logout, on this site).
    const params = readParams(request.body, END_SESSION_PARAMS);
    const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const search = query.toString();
    return reply.header('cache-control', 'no-store').redirect(search ? `/oauth/logout?${search}` : '/oauth/logout', 303);
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
    return this.commands.execute(new IssueTokenCommand(callOf(request)));
  }

  @Post('oauth/par')
  @Public()
  @HttpCode(201)
  @Contract({
    summary:
      'RFC 9126 pushed authorization request: the request checked and kept for a minute; the browser then goes to /oauth/authorize?client_id&request_uri',
    tags: ['oauth'],
    access: 'public',
    body: ParBodySchema,
    bodyEncoding: 'form',
    response: ParAnswerSchema,
    errors: [401, 415, 429],
  })
  async par(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    noStore(reply);
    this.requireForm(request);
    return this.commands.execute(new PushAuthorizationRequestCommand(callOf(request)));
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
    await this.commands.execute(new RevokeTokenCommand(callOf(request)));
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
    return this.queries.execute(new IntrospectTokenQuery(callOf(request)));
  }

  private requireForm(request: FastifyRequest) {
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      throw new OAuthProtocolError('invalid_request', msg('oauth.formBodyRequired'));
    }
  }

  @Get('oauth/userinfo')
  @AppTokenOnly()
  @UseGuards(AppTokenGuard)
  @Contract({ summary: 'OpenID Connect userinfo (needs scope openid)', tags: ['oauth'], access: 'app', response: JsonObjectSchema, errors: [403] })
  userinfo(@Req() request: AppRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    noStore(reply);
    return this.queries.execute(new UserInfoQuery(request.appToken!));
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
    return this.queries.execute(new JwksQuery());
  }

  @Get('.well-known/oauth-authorization-server')
  @Public()
  @Contract({ summary: 'RFC 8414 authorization server metadata', tags: ['oauth'], access: 'public', response: JsonObjectSchema })
  metadata() {
    return this.queries.execute(new DiscoveryQuery(false));
  }

  @Get('.well-known/openid-configuration')
  @Public()
  @Contract({ summary: 'OpenID Connect discovery', tags: ['oauth'], access: 'public', response: JsonObjectSchema })
  openidConfiguration() {
    return this.queries.execute(new DiscoveryQuery(true));
  }
}
