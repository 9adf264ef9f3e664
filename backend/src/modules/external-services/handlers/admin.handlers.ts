import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ExternalServiceDto } from '@life/contracts';
import { CatalogService } from '../catalog.service.js';
import type { CheckReport } from '../../../core/config-check/config-check.js';
import { CheckCatalogServiceCommand, UpdateCatalogServiceCommand } from '../public/commands.js';
import { ServiceCheckService } from '../service-check.service.js';

@CommandHandler(UpdateCatalogServiceCommand)
export class UpdateCatalogServiceHandler implements ICommandHandler<UpdateCatalogServiceCommand> {
  constructor(private readonly catalog: CatalogService) {}
  execute({ id, input }: UpdateCatalogServiceCommand): Promise<ExternalServiceDto> {
    return this.catalog.update(id, input);
  }
}

@CommandHandler(CheckCatalogServiceCommand)
export class CheckCatalogServiceHandler implements ICommandHandler<CheckCatalogServiceCommand> {
  constructor(private readonly checker: ServiceCheckService) {}
  execute({ id, adminId }: CheckCatalogServiceCommand): Promise<CheckReport> {
    return this.checker.check(id, adminId);
  }
}
