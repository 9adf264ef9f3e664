import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { DataExport, ErasureAccepted } from '@life/contracts';
import { AccountErasureService } from '../account-erasure.service.js';
import { DataExportService } from '../data-export.service.js';
import {
  BuildExportCommand,
  EraseAccountCommand,
  RequestErasureCommand,
  RequestExportCommand,
  type ErasureOutcome,
  type ExportOutcome,
} from '../public/commands.js';
import { ExportFileQuery, ExportStatusQuery, type ExportFile } from '../public/queries.js';

@CommandHandler(RequestExportCommand)
export class RequestExportHandler implements ICommandHandler<RequestExportCommand> {
  constructor(private readonly exports: DataExportService) {}
  execute({ userId }: RequestExportCommand): Promise<DataExport> {
    return this.exports.request(userId);
  }
}

@QueryHandler(ExportStatusQuery)
export class ExportStatusHandler implements IQueryHandler<ExportStatusQuery> {
  constructor(private readonly exports: DataExportService) {}
  execute({ userId, exportId }: ExportStatusQuery): Promise<DataExport> {
    return this.exports.status(userId, exportId);
  }
}

@QueryHandler(ExportFileQuery)
export class ExportFileHandler implements IQueryHandler<ExportFileQuery> {
  constructor(private readonly exports: DataExportService) {}
  execute({ userId, exportId }: ExportFileQuery): Promise<ExportFile> {
    return this.exports.file(userId, exportId);
  }
}

@CommandHandler(RequestErasureCommand)
export class RequestErasureHandler implements ICommandHandler<RequestErasureCommand> {
  constructor(private readonly erasure: AccountErasureService) {}
  execute({ person, confirm }: RequestErasureCommand): Promise<ErasureAccepted> {
    return this.erasure.request(person, confirm);
  }
}

/** Dispatched by the worker's `data-export` processor. */
@CommandHandler(BuildExportCommand)
export class BuildExportHandler implements ICommandHandler<BuildExportCommand> {
  constructor(private readonly exports: DataExportService) {}
  execute({ exportId, finalAttempt }: BuildExportCommand): Promise<ExportOutcome> {
    return this.exports.build(exportId, finalAttempt);
  }
}

/** Dispatched by the worker's `account-erasure` processor. */
@CommandHandler(EraseAccountCommand)
export class EraseAccountHandler implements ICommandHandler<EraseAccountCommand> {
  constructor(private readonly erasure: AccountErasureService) {}
  execute({ userId }: EraseAccountCommand): Promise<ErasureOutcome> {
    return this.erasure.erase(userId);
  }
}

export const DATA_RIGHTS_HANDLERS = [
  RequestExportHandler,
  ExportStatusHandler,
  ExportFileHandler,
  RequestErasureHandler,
  BuildExportHandler,
  EraseAccountHandler,
];
