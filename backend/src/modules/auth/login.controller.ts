import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { LoginCallbackQuerySchema, LoginStartQuerySchema, LoginSuccessSchema, ProviderParamsSchema } from '@life/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { AppError } from '../../core/http/app-error.js';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { Public } from '../../core/http/public.decorator.js';
import { wantsHtml } from '../../core/http/spa.js';
import { LOGIN_STATE_TTL_SECONDS } from './login-state.store.js';
import { AcceptFormPostCommand, BeginSignInCommand, CompleteSignInCommand, LogoutCommand } from './public/commands.js';
import { Audited } from '../audit/public/audited.decorator.js';

/** Binds a pending sign-in to the browser that started it (strictly necessary, 10 minutes). */
export const LOGIN_COOKIE = 'life_login';

const FormPostSchema = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(200).optional(),
    user: z.string().max(2000).optional(),
    error: z.string().max(200).optional(),
  })
  .strip();

/** @fastify/cookie's parser: cookies are read only here, so no hook parses them on every request. */
type CookieRequest = FastifyRequest & { server: { parseCookie(header: string): Record<string, string | undefined> } };

const loginCookie = (request: CookieRequest): string | undefined =>
  request.headers.cookie ? request.server.parseCookie(request.headers.cookie)[LOGIN_COOKIE] : undefined;

@Controller()
export class LoginController {
  /**
   * In production with an https APP_URL the cookie is always `Secure`: behind a TLS-terminating
   * proxy the request itself may look like plain http (TRUST_PROXY unset), yet browsers reach us
   * over https only. Elsewhere it is `Secure` when the request came over https.
   */
  private readonly alwaysSecure: boolean;

  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.alwaysSecure = config.isProduction && config.appUrl.startsWith('https://');
  }

  private cookieOptions(request: FastifyRequest) {
    return { httpOnly: true, sameSite: 'lax', path: '/login', secure: this.alwaysSecure || request.protocol === 'https' } as const;
  }

  private async redirectToProvider(provider: string, returnTo: string | undefined, request: FastifyRequest, reply: FastifyReply) {
    try {
      const { url, browserBinding } = await this.commands.execute(new BeginSignInCommand(provider, returnTo, request.ip));
      void reply.setCookie(LOGIN_COOKIE, browserBinding, { ...this.cookieOptions(request), maxAge: LOGIN_STATE_TTL_SECONDS });
      return reply.redirect(url, 302);
    } catch (error) {
      // A person clicking a button gets the landing page with the reason, not raw JSON.
      if (error instanceof AppError && wantsHtml(request)) return reply.redirect(`/?login_error=${encodeURIComponent(error.code)}`, 302);
      throw error;
    }
  }

  @Get('login/authorize/githublogin')
  @Public()
  @Contract({
    summary: 'Start signing in with GitHub (the githublogin service)',
    tags: ['auth'],
    access: 'public',
    query: LoginStartQuerySchema,
    successStatus: 302,
    produces: 'Redirect to GitHub',
    errors: [503],
  })
  githubLogin(@Query() query: { returnTo?: string }, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.redirectToProvider('github', query.returnTo, request, reply);
  }

  @Get('login/:provider')
  @Public()
  @Contract({
    summary: 'Start signing in: redirects to the provider',
    tags: ['auth'],
    access: 'public',
    params: ProviderParamsSchema,
    query: LoginStartQuerySchema,
    successStatus: 302,
    produces: 'Redirect to the provider',
    errors: [404, 503],
  })
  start(@Param('provider') provider: string, @Query() query: { returnTo?: string }, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.redirectToProvider(provider, query.returnTo, request, reply);
  }

  @Get('login/:provider/callback')
  @Public()
  @Contract({
    summary: 'Finish signing in (called once by the SPA callback page)',
    tags: ['auth'],
    access: 'public',
    params: ProviderParamsSchema,
    query: LoginCallbackQuerySchema,
    response: LoginSuccessSchema,
    errors: [400, 401, 403, 404, 409, 502, 503],
  })
  async callback(
    @Param('provider') provider: string,
    @Query() query: { code: string; state: string; iss?: string },
    @Req() request: CookieRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    void reply.clearCookie(LOGIN_COOKIE, this.cookieOptions(request));
    void reply.header('cache-control', 'no-store');
    return this.commands.execute(
      new CompleteSignInCommand(provider, { code: query.code, state: query.state, iss: query.iss }, loginCookie(request), {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }),
    );
  }

  @Post('login/:provider/callback')
  @Public()
  @Contract({
    summary: "Apple's form_post answer: continues on the SPA callback page",
    tags: ['auth'],
    access: 'public',
    params: ProviderParamsSchema,
    body: FormPostSchema,
    successStatus: 303,
    produces: 'Redirect to the callback page',
    errors: [404],
  })
  async formPost(@Param('provider') provider: string, @Body() body: z.infer<typeof FormPostSchema>, @Res() reply: FastifyReply) {
    return reply.redirect(await this.commands.execute(new AcceptFormPostCommand(provider, body)), 303);
  }

  @Post('api/auth/logout')
  @Audited({ action: 'auth.logout' })
  @HttpCode(204)
  @Contract({ summary: 'End this session on the server', tags: ['auth'], access: 'session' })
  async logout(@CurrentUser() user: AuthenticatedUser) {
    await this.commands.execute(new LogoutCommand(user.token));
  }
}
