import { AppError } from '../../core/http/app-error.js';
import type { Text } from '../../core/i18n/messages.js';

export enum HealthErrorCode {
  QueueNotFound = 'queue_not_found',
  JobNotFound = 'job_not_found',
  JobNotFailed = 'job_not_failed',
}

const STATUS: Record<HealthErrorCode, number> = {
  [HealthErrorCode.QueueNotFound]: 404,
  [HealthErrorCode.JobNotFound]: 404,
  [HealthErrorCode.JobNotFailed]: 409,
};

export class HealthError extends AppError {
  constructor(code: HealthErrorCode, message: Text) {
    super(STATUS[code], code, message);
  }
}
