import { AppError } from '../../core/http/app-error.js';
import type { Text } from '../../core/i18n/messages.js';

export enum UsersErrorCode {
  UsernameTaken = 'username_taken',
  UserNotFound = 'user_not_found',
}

export class UsersError extends AppError {
  constructor(code: UsersErrorCode, message: Text) {
    super(code === UsersErrorCode.UsernameTaken ? 409 : 404, code, message);
  }
}
