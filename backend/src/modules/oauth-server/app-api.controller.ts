import { Controller, Delete, Get, Param, Patch, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { AppMeSchema, AppServicesSchema, SegmentSchema, serviceScope } from '@life/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { EntityManager } from '@mikro-orm/postgresql';
import { AppTokenOnly } from '../../core/http/app-token.decorator.js';
import { Contract, type ContractSpec } from '../../core/http/contract.js';
import { AppTokenGuard, type AppRequest } from './app-token.guard.js';
import { insufficientScope, invalidToken } from './oauth.errors.js';
import { ProxyService } from './proxy.service.js';
import { grantsEmail, grantsUsername, PROFILE_SCOPES, SERVICE_LIST_SCOPES } from './scopes.js';

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
    private readonly em: EntityManager,
    private readonly proxy: ProxyService,
  ) {}

  @Get('me')
  @Contract({ summary: 'Who the person is, as far as the token’s scopes allow', tags: ['apps'], access: 'app', response: AppMeSchema, errors: [403] })
  me(@Req() request: AppRequest) {
    const token = request.appToken!;
    if (!token.userId) throw invalidToken('Este token es de la aplicación, no de una persona.');
    if (!token.scopes.some((scope) => PROFILE_SCOPES.includes(scope))) throw insufficientScope('profile');
    return {
      sub: token.userId,
      ...(grantsUsername(token.scopes) ? { username: token.username ?? undefined } : {}),
      ...(grantsEmail(token.scopes) ? { email: token.email ?? undefined } : {}),
    };
  }

  @Get('services')
  @Contract({ summary: 'The person’s connected services (never their tokens)', tags: ['apps'], access: 'app', response: AppServicesSchema, errors: [403] })
  async services(@Req() request: AppRequest) {
    const token = request.appToken!;
    if (!token.userId) throw invalidToken('Este token es de la aplicación, no de una persona.');
    if (!token.scopes.some((scope) => SERVICE_LIST_SCOPES.includes(scope))) throw insufficientScope('services:read');
    const rows = await this.em.getConnection().execute<{ service_name: string; status: string; created_at: Date }[]>(
      `select s.service_name, c.status, c.created_at from service_connections c join external_services s on s.id = c.service_id
        where c.user_id = ? order by s.service_name`,
      [token.userId],
    );
    return rows.map((row) => ({
      service_name: row.service_name,
      status: row.status,
      connected_at: row.created_at ? new Date(row.created_at).toISOString() : null,
      proxy_allowed: token.scopes.includes(serviceScope(row.service_name)),
    }));
  }

  private async forward(request: AppRequest, reply: FastifyReply, name: string) {
    const path = (request.params as Record<string, string>)['*'] ?? '';
    const queryAt = request.url.indexOf('?');
    const answer = await this.proxy.forward(request.appToken!, name, {
      method: request.method,
      path,
      search: queryAt >= 0 ? request.url.slice(queryAt) : '',
      headers: request.headers,
      body: proxyBody(request),
    });
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

/** The raw request body (JSON is re-serialised from the parsed value when no raw copy exists). */
function proxyBody(request: AppRequest): Buffer | undefined {
  const raw = (request as AppRequest & { rawBody?: Buffer | string }).rawBody;
  if (raw !== undefined) return Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
  if (request.body === undefined || request.body === null) return undefined;
  return Buffer.from(typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
}
