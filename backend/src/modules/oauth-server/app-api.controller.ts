import { Controller, Delete, Get, Param, Patch, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AppMeSchema, AppServicesSchema, isDayService, SegmentSchema, SERVICE_SCOPE_PREFIX, TodayQuerySchema, TodaySchema } from '@life/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { AppTokenOnly } from '../../core/http/app-token.decorator.js';
import { Contract, type ContractSpec } from '../../core/http/contract.js';
import { PersonTodayQuery } from '../your-day/public/queries.js';
import { msg } from '../../core/i18n/messages.js';
import { AppTokenGuard, type AppRequest } from './app-token.guard.js';
import { insufficientScope, invalidToken } from './oauth.errors.js';
import { ProxyRequestCommand } from './public/commands.js';
import { AppMeQuery, AppServicesQuery } from './public/queries.js';

const ProxyParamsSchema = z.object({ name: SegmentSchema, '*': z.string().max(2000) });

const proxyContract = (method: string): ContractSpec => ({
  summary: `${method} to a connected service's API with the person's token (needs service:<name>)`,
  tags: ['apps'],
  access: 'app',
  params: ProxyParamsSchema,
  produces: "The provider's answer, passed through",
  errors: [403, 404, 409, 429, 502, 503, 504],
});

/** The resource API for third-party apps: OAuth access tokens only. */
@Controller('api/v1')
@AppTokenOnly()
@UseGuards(AppTokenGuard)
export class AppApiController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('me')
  @Contract({ summary: 'Who the person is, as far as the token’s scopes allow', tags: ['apps'], access: 'app', response: AppMeSchema, errors: [403] })
  me(@Req() request: AppRequest) {
    return this.queries.execute(new AppMeQuery(request.appToken!));
  }

  @Get('me/today')
  @Contract({
    summary: 'Today’s items of the person’s connected services, only those the token’s service:<name> scopes name (docs/your-day.md)',
    tags: ['apps'],
    access: 'app',
    query: TodayQuerySchema,
    response: TodaySchema,
    errors: [400, 401, 403, 429],
  })
  today(@Req() request: AppRequest, @Query() query: { tz?: string }) {
    const token = request.appToken!;
    if (!token.userId) throw invalidToken(msg('oauth.appTokenNotPerson'));
    const services = token.scopes
      .filter((scope) => scope.startsWith(SERVICE_SCOPE_PREFIX))
      .map((scope) => scope.slice(SERVICE_SCOPE_PREFIX.length))
      .filter(isDayService);
    // Without a service that has a view it would only tell the person's time zone: not for an app that may see none of their day.
    if (services.length === 0) throw insufficientScope(`${SERVICE_SCOPE_PREFIX}<name>`, token);
    return this.queries.execute(new PersonTodayQuery(token.userId, query.tz, services, token.clientRowId));
  }

  @Get('services')
  @Contract({ summary: 'The person’s connected services (never their tokens)', tags: ['apps'], access: 'app', response: AppServicesSchema, errors: [403] })
  services(@Req() request: AppRequest) {
    return this.queries.execute(new AppServicesQuery(request.appToken!));
  }

  private async forward(request: AppRequest, reply: FastifyReply, name: string) {
    const queryAt = request.url.indexOf('?');
    const answer = await this.commands.execute(
      new ProxyRequestCommand(request.appToken!, name, {
        method: request.method,
        path: rawProxyPath(queryAt >= 0 ? request.url.slice(0, queryAt) : request.url),
        search: queryAt >= 0 ? request.url.slice(queryAt) : '',
        headers: request.headers,
        body: proxyBody(request),
      }),
    );
    return reply.status(answer.status).headers(answer.headers).send(answer.body);
  }

  @Get('services/:name/proxy/*')
  @Contract(proxyContract('GET'))
  get(@Req() request: AppRequest, @Res() reply: FastifyReply, @Param('name') name: string) {
    return this.forward(request, reply, name);
  }

  @Post('services/:name/proxy/*')
  @Contract(proxyContract('POST'))
  post(@Req() request: AppRequest, @Res() reply: FastifyReply, @Param('name') name: string) {
    return this.forward(request, reply, name);
  }

  @Put('services/:name/proxy/*')
  @Contract(proxyContract('PUT'))
  put(@Req() request: AppRequest, @Res() reply: FastifyReply, @Param('name') name: string) {
    return this.forward(request, reply, name);
  }

  @Patch('services/:name/proxy/*')
  @Contract(proxyContract('PATCH'))
  patch(@Req() request: AppRequest, @Res() reply: FastifyReply, @Param('name') name: string) {
    return this.forward(request, reply, name);
  }

  @Delete('services/:name/proxy/*')
  @Contract(proxyContract('DELETE'))
  delete(@Req() request: AppRequest, @Res() reply: FastifyReply, @Param('name') name: string) {
    return this.forward(request, reply, name);
  }
}

/**
 * The `{path}` of `/api/v1/services/{name}/proxy/{path}` as the app sent it, still percent-encoded.
 * The router's `*` parameter is decoded: an encoded `?` or `#` (`%3F`, `%23`) in it would become
 * the start of a query or fragment and cut the path. Taken from the raw URL, an encoded character
 * reaches the provider encoded, as part of the path (ProxyService.target checks each segment).
 */
export function rawProxyPath(pathname: string): string {
  // '', 'api', 'v1', 'services', '{name}', 'proxy', then the path's own segments.
  return pathname.split('/').slice(6).join('/');
}

/** The raw request body (JSON is re-serialised from the parsed value when no raw copy exists). */
function proxyBody(request: AppRequest): Buffer | undefined {
  const raw = (request as AppRequest & { rawBody?: Buffer | string }).rawBody;
  if (raw !== undefined) return Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
  if (request.body === undefined || request.body === null) return undefined;
  return Buffer.from(typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
}
