import { Body, Controller, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ConfigurationCheckSchema,
  ExternalServiceSchema,
  ExternalServiceUpdateSchema,
  IdParamsSchema,
  type ExternalServiceUpdate,
  type Language,
} from '@life/contracts';
import { renderReport } from '../../core/config-check/config-check.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import { Contract } from '../../core/http/contract.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { Audited, changedFields } from '../audit/public/audited.decorator.js';
import { CheckCatalogServiceCommand, UpdateCatalogServiceCommand } from '../external-services/public/commands.js';

/** Admin: 'Servicios Conectados', the catalog every person's dashboard shows. */
@Controller()
export class AdminServicesController {
  constructor(private readonly commands: CommandBus) {}

  @Put('api/external-services/:id')
  @Audited({ action: 'admin.service_updated', target: ({ params }) => ({ type: 'external_service', id: params.id }), details: changedFields })
  @Roles('admin')
  @Contract({
    summary: 'Edit a catalog entry (masked secrets mean unchanged)',
    tags: ['admin'],
    access: 'admin',
    params: IdParamsSchema,
    body: ExternalServiceUpdateSchema,
    response: ExternalServiceSchema,
    errors: [404, 409],
    operationId: 'ExternalServicesController_update',
  })
  update(@Param('id') id: string, @Body() body: ExternalServiceUpdate) {
    return this.commands.execute(new UpdateCatalogServiceCommand(id, body));
  }

  @Post('api/external-services/:id/check')
  @HttpCode(200)
  @Audited({
    action: 'admin.service_checked',
    target: ({ params }) => ({ type: 'external_service', id: params.id }),
    details: ({ result }) => ({ ok: (result as { ok?: boolean } | undefined)?.ok ?? null }),
  })
  @Roles('admin')
  @Contract({
    summary: 'Check a catalog entry’s configuration without connecting anyone (decision 0044)',
    tags: ['admin'],
    access: 'admin',
    params: IdParamsSchema,
    response: ConfigurationCheckSchema,
    errors: [404, 429],
  })
  async check(@Param('id') id: string, @CurrentUser() admin: AuthenticatedUser, @RequestLanguage() language: Language) {
    return renderReport(await this.commands.execute(new CheckCatalogServiceCommand(id, admin.id)), language);
  }
}
