import { AppError } from '../../core/http/app-error.js';
import type { Text } from '../../core/i18n/messages.js';

export enum ContactErrorCode {
  MessageNotFound = 'contact_message_not_found',
}

const STATUS: Record<ContactErrorCode, number> = {
  [ContactErrorCode.MessageNotFound]: 404,
};

export class ContactError extends AppError {
  constructor(code: ContactErrorCode, message: Text) {
    super(STATUS[code], code, message);
  }
}
