import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  CreateDeveloperAppSchema,
  DeveloperAppListSchema,
  DeveloperAppSchema,
  DeveloperAppWithSecretSchema,
  OAuthClientParamsSchema,
  UpdateDeveloperAppSchema,
  type CreateDeveloperApp,
  type UpdateDeveloperApp,
} from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { Audited, changedFields } from '../audit/public/audited.decorator.js';
import { CreateDeveloperAppCommand, DeleteDeveloperAppCommand, RotateDeveloperAppSecretCommand, UpdateDeveloperAppCommand } from './public/commands.js';
import { DeveloperAppsQuery } from './public/queries.js';

const appTarget = ({ result }: { result: unknown }) => ({ type: 'oauth_client', id: (result as { client_id?: string } | undefined)?.client_id });

/** The apps a signed-in person registers (profile: 'Mis aplicaciones', decision 0037). */
@Controller('api/users/me/developer-apps')
export class DeveloperAppsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Contract({
    summary: 'My registered apps (never their secrets) and how many I may have',
    tags: ['developer-apps'],
    access: 'session',
    response: DeveloperAppListSchema,
  })
  list(@CurrentUser() user: AuthenticatedUser) {
    return this.queries.execute(new DeveloperAppsQuery(user.id));
  }

  @Post()
  @Audited({ action: 'developer.app_created', target: appTarget, details: changedFields })
  @HttpCode(201)
  @Contract({
    summary: 'Register an app; the answer holds its secret, shown this once. Starts unverified',
    tags: ['developer-apps'],
    access: 'session',
    body: CreateDeveloperAppSchema,
    response: DeveloperAppWithSecretSchema,
    successStatus: 201,
    errors: [409],
  })
  create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreateDeveloperApp) {
    return this.commands.execute(new CreateDeveloperAppCommand(user.id, body));
  }

  @Put(':id')
  @Audited({ action: 'developer.app_updated', target: appTarget, details: changedFields })
  @Contract({
    summary: 'Edit one of my apps (a new name, logo, link or redirect URI needs a new verification)',
    tags: ['developer-apps'],
    access: 'session',
    params: OAuthClientParamsSchema,
    body: UpdateDeveloperAppSchema,
    response: DeveloperAppSchema,
    errors: [404],
  })
  update(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() body: UpdateDeveloperApp) {
    return this.commands.execute(new UpdateDeveloperAppCommand(user.id, id, body));
  }

  @Post(':id/secret')
  @Audited({ action: 'developer.app_secret_rotated', target: appTarget })
  @HttpCode(200)
  @Contract({
    summary: 'A new secret for one of my confidential apps, shown this once; the old one stops working at once',
    tags: ['developer-apps'],
    access: 'session',
    params: OAuthClientParamsSchema,
    response: DeveloperAppWithSecretSchema,
    errors: [404, 409],
  })
  rotateSecret(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.commands.execute(new RotateDeveloperAppSecretCommand(user.id, id));
  }

  @Delete(':id')
  @Audited({ action: 'developer.app_deleted', target: ({ params }) => ({ type: 'oauth_client', id: params.id }) })
  @HttpCode(204)
  @Contract({
    summary: 'Remove one of my apps with its grants and tokens',
    tags: ['developer-apps'],
    access: 'session',
    params: OAuthClientParamsSchema,
    errors: [404],
  })
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.commands.execute(new DeleteDeveloperAppCommand(user.id, id));
  }
}
