import { Query } from '@nestjs/cqrs';
import type { DataExport } from '@life/contracts';

/** The state of one of the person's exports (someone else's is not found, like one that never existed). */
export class ExportStatusQuery extends Query<DataExport> {
  constructor(
    readonly userId: string,
    readonly exportId: string,
  ) {
    super();
  }
}

/** A ready export's file, for its owner until it expires. */
export interface ExportFile {
  filename: string;
  content: string;
}

/** The file of one of the person's exports: not found, not ready (409) or expired (410) otherwise. */
export class ExportFileQuery extends Query<ExportFile> {
  constructor(
    readonly userId: string,
    readonly exportId: string,
  ) {
    super();
  }
}
