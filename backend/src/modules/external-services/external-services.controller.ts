import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  AuthUrlSchema,
  ConnectStartSchema,
  DisconnectResultSchema,
  ExternalServiceListSchema,
  ServiceCallbackQuerySchema,
  ServiceCallbackSchema,
  ServiceNameParamsSchema,
  ServiceParamsSchema,
  UserCredentialInputSchema,
  UserCredentialSchema,
} from '@life/contracts';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { Language } from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { DisconnectServiceCommand, FinishConnectionCommand, SaveOwnCredentialsCommand, StartConnectionCommand } from './public/commands.js';
import { ListPersonServicesQuery, OwnCredentialsQuery } from './public/queries.js';

@Controller()
export class ExternalServicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('api/external-services/all')
  @Contract({
    summary: 'The service catalog with this person’s connection state (secrets masked; app ids and extra headers only for admins)',
    tags: ['services'],
    access: 'session',
    response: ExternalServiceListSchema,
  })
  list(@CurrentUser() user: AuthenticatedUser) {
    return this.queries.execute(new ListPersonServicesQuery(user.id, user.role === 'admin'));
  }

  @Post('api/external-services/:service_name/auth')
  @HttpCode(200)
  @Contract({
    summary: 'Start connecting a service: the provider URL to send the browser to',
    tags: ['services'],
    access: 'session',
    params: ServiceNameParamsSchema,
    body: ConnectStartSchema,
    response: AuthUrlSchema,
    errors: [400, 404, 409, 503],
  })
  auth(@CurrentUser() user: AuthenticatedUser, @Param('service_name') serviceName: string, @Body() body: { region?: string } | undefined) {
    return this.commands.execute(new StartConnectionCommand(user.id, serviceName, body?.region));
  }

  @Get('callback/:service')
  @Contract({
    summary: 'Finish connecting a service (called once by the SPA callback page)',
    tags: ['services'],
    access: 'session',
    params: ServiceParamsSchema,
    query: ServiceCallbackQuerySchema,
    response: ServiceCallbackSchema,
    errors: [400, 404, 502, 503],
  })
  callback(
    @CurrentUser() user: AuthenticatedUser,
    @Param('service') service: string,
    @Query() query: { code: string; state: string },
    @Res({ passthrough: true }) reply: FastifyReply,
    @RequestLanguage() language: Language,
  ) {
    void reply.header('cache-control', 'no-store');
    return this.commands.execute(new FinishConnectionCommand(user, service, query.code, query.state, language));
  }

  @Delete('api/external-services/:service_name/connection')
  @Contract({
    summary: 'Disconnect: revoke at the provider where possible and delete our tokens',
    tags: ['services'],
    access: 'session',
    params: ServiceNameParamsSchema,
    response: DisconnectResultSchema,
    errors: [404],
  })
  disconnect(@CurrentUser() user: AuthenticatedUser, @Param('service_name') serviceName: string) {
    return this.commands.execute(new DisconnectServiceCommand(user.id, serviceName));
  }

  @Get('api/external-services-user/:service_name')
  @Contract({
    summary: 'This person’s own client credentials for a service (404 = none; secret masked)',
    tags: ['services'],
    access: 'session',
    params: ServiceNameParamsSchema,
    response: UserCredentialSchema,
    errors: [404],
  })
  getCredentials(@CurrentUser() user: AuthenticatedUser, @Param('service_name') serviceName: string) {
    return this.queries.execute(new OwnCredentialsQuery(user.id, serviceName));
  }

  @Post('api/external-services-user')
  @HttpCode(200)
  @Contract({
    summary: 'Save this person’s own client credentials for a service',
    tags: ['services'],
    access: 'session',
    body: UserCredentialInputSchema,
    response: UserCredentialSchema,
    errors: [404],
  })
  saveCredentials(@CurrentUser() user: AuthenticatedUser, @Body() body: { service_name: string; client_id: string; client_secret: string }) {
    return this.commands.execute(new SaveOwnCredentialsCommand(user.id, body));
  }
}
