import { Command } from '@nestjs/cqrs';
import type { ExternalServiceDto, ExternalServiceUpdate } from '@life/contracts';

/** Admin: edit a catalog entry (masked secrets mean unchanged); affects every person's card. */
export class UpdateCatalogServiceCommand extends Command<ExternalServiceDto> {
  constructor(
    readonly id: string,
    readonly input: ExternalServiceUpdate,
  ) {
    super();
  }
}
