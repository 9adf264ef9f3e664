import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ExternalServiceSchema, ExternalServiceUpdateSchema, IdParamsSchema, type ExternalServiceUpdate } from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { Audited, changedFields } from '../audit/public/audited.decorator.js';
import { UpdateCatalogServiceCommand } from '../external-services/public/commands.js';

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
}
