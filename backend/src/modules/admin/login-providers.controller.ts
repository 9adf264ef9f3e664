import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ConfigurationCheckSchema,
  IdParamsSchema,
  LoginProviderInputSchema,
  LoginProviderListSchema,
  LoginProviderSchema,
  type Language,
  type LoginProviderInput,
} from '@life/contracts';
import { renderReport } from '../../core/config-check/config-check.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import { Contract } from '../../core/http/contract.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Audited, changedFields } from '../audit/public/audited.decorator.js';
import {
  CheckLoginProviderCommand,
  CreateLoginProviderCommand,
  DeleteLoginProviderCommand,
  ListLoginProvidersQuery,
  UpdateLoginProviderCommand,
} from '../auth/public/commands.js';

@Controller('api/login-providers')
@Roles('admin')
export class LoginProvidersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Contract({ summary: 'List login providers (secrets masked)', tags: ['admin'], access: 'admin', response: LoginProviderListSchema })
  list() {
    return this.queries.execute(new ListLoginProvidersQuery());
  }

  @Post()
  @Audited({
    action: 'admin.login_provider_created',
    target: ({ result }) => ({ type: 'login_provider', id: (result as { id?: string })?.id }),
    details: changedFields,
  })
  @Contract({
    summary: 'Add a login provider',
    tags: ['admin'],
    access: 'admin',
    body: LoginProviderInputSchema,
    response: LoginProviderSchema,
    successStatus: 201,
    errors: [404, 409],
  })
  create(@Body() body: LoginProviderInput) {
    return this.commands.execute(new CreateLoginProviderCommand(body));
  }

  @Put(':id')
  @Audited({ action: 'admin.login_provider_updated', target: ({ params }) => ({ type: 'login_provider', id: params.id }), details: changedFields })
  @Contract({
    summary: 'Edit a login provider (the masked secret means unchanged)',
    tags: ['admin'],
    access: 'admin',
    params: IdParamsSchema,
    body: LoginProviderInputSchema,
    response: LoginProviderSchema,
    errors: [404, 409],
  })
  update(@Param('id') id: string, @Body() body: LoginProviderInput) {
    return this.commands.execute(new UpdateLoginProviderCommand(id, body));
  }

  @Post(':id/check')
  @HttpCode(200)
  @Audited({
    action: 'admin.login_provider_checked',
    target: ({ params }) => ({ type: 'login_provider', id: params.id }),
    details: ({ result }) => ({ ok: (result as { ok?: boolean } | undefined)?.ok ?? null }),
  })
  @Contract({
    summary: 'Check a login provider’s configuration without starting a sign-in (decision 0044)',
    tags: ['admin'],
    access: 'admin',
    params: IdParamsSchema,
    response: ConfigurationCheckSchema,
    errors: [404, 429],
  })
  async check(@Param('id') id: string, @CurrentUser() admin: AuthenticatedUser, @RequestLanguage() language: Language) {
    return renderReport(await this.commands.execute(new CheckLoginProviderCommand(id, admin.id)), language);
  }

  @Delete(':id')
  @Audited({ action: 'admin.login_provider_deleted', target: ({ params }) => ({ type: 'login_provider', id: params.id }) })
  @HttpCode(204)
  @Contract({ summary: 'Delete a login provider', tags: ['admin'], access: 'admin', params: IdParamsSchema, successStatus: 204, errors: [404] })
  async remove(@Param('id') id: string) {
    await this.commands.execute(new DeleteLoginProviderCommand(id));
  }
}
