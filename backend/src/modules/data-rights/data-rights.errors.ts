import { AppError } from '../../core/http/app-error.js';
import type { Text } from '../../core/i18n/messages.js';

export enum DataRightsErrorCode {
  ExportNotFound = 'export_not_found',
  ExportNotReady = 'export_not_ready',
  ExportExpired = 'export_expired',
  ConfirmationMismatch = 'confirmation_mismatch',
}

const STATUS: Record<DataRightsErrorCode, number> = {
  // Someone else's export is "not found" too: its existence is not revealed.
  [DataRightsErrorCode.ExportNotFound]: 404,
  [DataRightsErrorCode.ExportNotReady]: 409,
  [DataRightsErrorCode.ExportExpired]: 410,
  [DataRightsErrorCode.ConfirmationMismatch]: 400,
};

export class DataRightsError extends AppError {
  constructor(code: DataRightsErrorCode, message: Text) {
    super(STATUS[code], code, message);
  }
}
