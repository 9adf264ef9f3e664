import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  CreateOAuthClientSchema,
  OAuthClientListSchema,
  OAuthClientParamsSchema,
  OAuthClientSchema,
  OAuthClientWithSecretSchema,
  UpdateOAuthClientSchema,
  type CreateOAuthClient,
  type UpdateOAuthClient,
} from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Audited, changedFields } from '../audit/public/audited.decorator.js';
import {
  CreateOAuthClientCommand,
  DeleteOAuthClientCommand,
  ListOAuthClientsQuery,
  RotateOAuthClientSecretCommand,
  SetOAuthClientStandingCommand,
  UpdateOAuthClientCommand,
} from '../oauth-server/public/commands.js';

const clientTarget = ({ result }: { result: unknown }) => ({ type: 'oauth_client', id: (result as { client_id?: string } | undefined)?.client_id });

/** Admin: the third-party applications allowed to ask people for access. */
@Controller('oauth_clients')
@Roles('admin')
export class OAuthClientsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Contract({ summary: 'Client applications (never their secrets)', tags: ['oauth-clients'], access: 'admin', response: OAuthClientListSchema })
  list() {
    return this.queries.execute(new ListOAuthClientsQuery());
  }

  @Post()
  @Audited({
    action: 'admin.oauth_client_created',
    target: ({ result }) => ({ type: 'oauth_client', id: (result as { client_id?: string })?.client_id }),
    details: changedFields,
  })
  @HttpCode(201)
  @Contract({
    summary: 'Register a client application; the answer holds its secret, shown this once',
    tags: ['oauth-clients'],
    access: 'admin',
    body: CreateOAuthClientSchema,
    response: OAuthClientWithSecretSchema,
    successStatus: 201,
  })
  create(@Body() body: CreateOAuthClient, @CurrentUser() user: AuthenticatedUser) {
    return this.commands.execute(new CreateOAuthClientCommand(body, user.id));
  }

  @Put(':id')
  @Audited({
    action: 'admin.oauth_client_updated',
    target: ({ result }) => ({ type: 'oauth_client', id: (result as { client_id?: string })?.client_id }),
    details: changedFields,
  })
  @Contract({
    summary: 'Edit a client application (the full object; read-only fields are ignored)',
    tags: ['oauth-clients'],
    access: 'admin',
    params: OAuthClientParamsSchema,
    body: UpdateOAuthClientSchema,
    response: OAuthClientSchema,
    errors: [404],
  })
  update(@Param('id') id: string, @Body() body: UpdateOAuthClient) {
    return this.commands.execute(new UpdateOAuthClientCommand(id, body));
  }

  @Post(':id/secret')
  @Audited({
    action: 'admin.oauth_client_secret_rotated',
    target: ({ result }) => ({ type: 'oauth_client', id: (result as { client_id?: string })?.client_id }),
  })
  @HttpCode(200)
  @Contract({
    summary: 'Replace a confidential client’s secret; the old one stops working at once',
    tags: ['oauth-clients'],
    access: 'admin',
    params: OAuthClientParamsSchema,
    response: OAuthClientWithSecretSchema,
    errors: [404, 409],
  })
  rotateSecret(@Param('id') id: string) {
    return this.commands.execute(new RotateOAuthClientSecretCommand(id));
  }

  @Delete(':id')
  @Audited({ action: 'admin.oauth_client_deleted', target: ({ params }) => ({ type: 'oauth_client', id: params.id }) })
  @HttpCode(204)
  @Contract({
    summary: 'Remove a client application with its grants and tokens',
    tags: ['oauth-clients'],
    access: 'admin',
    params: OAuthClientParamsSchema,
    errors: [404],
  })
  async remove(@Param('id') id: string) {
    await this.commands.execute(new DeleteOAuthClientCommand(id));
  }

  // Decision 0037: the company's word on an app (the consent screen shows it) and its suspension
  // (refused everywhere, tokens stop working; the app's owner cannot lift it). One audited route each.

  @Post(':id/verify')
  @Audited({ action: 'admin.oauth_client_verified', target: clientTarget })
  @HttpCode(200)
  @Contract({
    summary: 'Mark an app as verified by the company',
    tags: ['oauth-clients'],
    access: 'admin',
    params: OAuthClientParamsSchema,
    response: OAuthClientSchema,
    errors: [404],
  })
  verify(@Param('id') id: string) {
    return this.commands.execute(new SetOAuthClientStandingCommand(id, 'verify'));
  }

  @Post(':id/unverify')
  @Audited({ action: 'admin.oauth_client_unverified', target: clientTarget })
  @HttpCode(200)
  @Contract({
    summary: 'Withdraw the company’s verification of an app',
    tags: ['oauth-clients'],
    access: 'admin',
    params: OAuthClientParamsSchema,
    response: OAuthClientSchema,
    errors: [404],
  })
  unverify(@Param('id') id: string) {
    return this.commands.execute(new SetOAuthClientStandingCommand(id, 'unverify'));
  }

  @Post(':id/suspend')
  @Audited({ action: 'admin.oauth_client_suspended', target: clientTarget })
  @HttpCode(200)
  @Contract({
    summary: 'Suspend an app: refused at every endpoint and its tokens stop working at once',
    tags: ['oauth-clients'],
    access: 'admin',
    params: OAuthClientParamsSchema,
    response: OAuthClientSchema,
    errors: [404],
  })
  suspend(@Param('id') id: string) {
    return this.commands.execute(new SetOAuthClientStandingCommand(id, 'suspend'));
  }

  @Post(':id/unsuspend')
  @Audited({ action: 'admin.oauth_client_unsuspended', target: clientTarget })
  @HttpCode(200)
  @Contract({
    summary: 'Lift an app’s suspension',
    tags: ['oauth-clients'],
    access: 'admin',
    params: OAuthClientParamsSchema,
    response: OAuthClientSchema,
    errors: [404],
  })
  unsuspend(@Param('id') id: string) {
    return this.commands.execute(new SetOAuthClientStandingCommand(id, 'unsuspend'));
  }
}
