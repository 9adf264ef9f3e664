import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ExternalServiceDto } from '@life/contracts';
import { CatalogService } from '../catalog.service.js';
import { UpdateCatalogServiceCommand } from '../public/commands.js';

@CommandHandler(UpdateCatalogServiceCommand)
export class UpdateCatalogServiceHandler implements ICommandHandler<UpdateCatalogServiceCommand> {
  constructor(private readonly catalog: CatalogService) {}
  execute({ id, input }: UpdateCatalogServiceCommand): Promise<ExternalServiceDto> {
    return this.catalog.update(id, input);
  }
}
