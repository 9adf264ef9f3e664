import { Command } from '@nestjs/cqrs';
import type { DataExport, ErasureAccepted } from '@life/contracts';

/** 'Descargar mis datos': starts an export, or answers the one already on its way (rate limited per person). */
export class RequestExportCommand extends Command<DataExport> {
  constructor(readonly userId: string) {
    super();
  }
}

/**
 * 'Eliminar mi cuenta': checks the confirmation (the username or ELIMINAR), marks the account,
 * signs the person out everywhere at once; the erasure follows in the background.
 */
export class RequestErasureCommand extends Command<ErasureAccepted> {
  constructor(
    readonly person: { id: string; username: string },
    readonly confirm: string,
  ) {
    super();
  }
}

/** What the export job did: built the file, or found nothing to build (gone meanwhile). */
export type ExportOutcome = 'ready' | 'missing';

/** Worker: builds one export's file. Throws so the job retries; the final attempt's failure marks the export failed. */
export class BuildExportCommand extends Command<ExportOutcome> {
  constructor(
    readonly exportId: string,
    readonly finalAttempt: boolean,
  ) {
    super();
  }
}

export type ErasureOutcome =
  | { outcome: 'erased'; connections: number; revokedAtProvider: number; appGrants: number; membershipKept: boolean }
  | { outcome: 'already_erased' | 'not_requested' };

/** Worker: erases one account whose owner asked. Throws (so the job retries) when a module could not erase its part. */
export class EraseAccountCommand extends Command<ErasureOutcome> {
  constructor(readonly userId: string) {
    super();
  }
}
