import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AppGrantListSchema, AppGrantParamsSchema, type Language } from '@life/contracts';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { RevokeGrantCommand } from './public/commands.js';
import { AppGrantsQuery } from './public/queries.js';

/** The person's own view of the apps they let in (profile: 'Aplicaciones con acceso'). */
@Controller('api/users/me/apps')
export class GrantsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Contract({ summary: 'Apps holding a grant from me, with their scopes and date', tags: ['apps'], access: 'session', response: AppGrantListSchema })
  list(@CurrentUser() user: AuthenticatedUser, @RequestLanguage() language: Language) {
    return this.queries.execute(new AppGrantsQuery(user.id, language));
  }

  @Delete(':id')
  @HttpCode(204)
  @Contract({
    summary: 'Revoke an app’s grant: every token issued under it stops working at once',
    tags: ['apps'],
    access: 'session',
    params: AppGrantParamsSchema,
    errors: [404],
  })
  async revoke(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.commands.execute(new RevokeGrantCommand(user.id, id));
  }
}
