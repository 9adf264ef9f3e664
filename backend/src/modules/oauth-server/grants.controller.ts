import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { AppGrantListSchema, AppGrantParamsSchema, type Language } from '@life/contracts';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { AuthorizationService } from './authorization.service.js';

/** The person's own view of the apps they let in (profile: 'Aplicaciones con acceso'). */
@Controller('api/users/me/apps')
export class GrantsController {
  constructor(private readonly authorization: AuthorizationService) {}

  @Get()
  @Contract({ summary: 'Apps holding a grant from me, with their scopes and date', tags: ['apps'], access: 'session', response: AppGrantListSchema })
  list(@CurrentUser() user: AuthenticatedUser, @RequestLanguage() language: Language) {
    return this.authorization.grantsOf(user.id, language);
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
    await this.authorization.revokeGrantByOwner(user.id, id);
  }
}
