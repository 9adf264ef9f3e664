import { AppError } from '../../core/http/app-error.js';

export enum ContactErrorCode {
  MessageNotFound = 'contact_message_not_found',
}

const STATUS: Record<ContactErrorCode, number> = {
  [ContactErrorCode.MessageNotFound]: 404,
};

export class ContactError extends AppError {
  constructor(code: ContactErrorCode, message: string) {
    super(STATUS[code], code, message);
  }
}
