import { AppError } from '../../core/http/app-error.js';
import type { Text } from '../../core/i18n/messages.js';

export enum AuthErrorCode {
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  UnknownProvider = 'unknown_provider',
  ProviderUnavailable = 'provider_unavailable',
  InvalidState = 'invalid_state',
  ProviderError = 'provider_error',
  InvalidIdToken = 'invalid_id_token',
  UnverifiedEmail = 'unverified_email',
  NotInvited = 'not_invited',
  AccountBeingErased = 'account_being_erased',
  AlreadyInvited = 'already_invited',
  InviteNotFound = 'invite_not_found',
  LoginProviderNotFound = 'login_provider_not_found',
  LoginProviderExists = 'login_provider_exists',
  PrivateServiceUrl = 'private_service_url',
  InsecureServiceUrl = 'insecure_service_url',
}

const STATUS: Record<AuthErrorCode, number> = {
  [AuthErrorCode.Unauthorized]: 401,
  [AuthErrorCode.Forbidden]: 403,
  [AuthErrorCode.UnknownProvider]: 404,
  [AuthErrorCode.ProviderUnavailable]: 503,
  [AuthErrorCode.InvalidState]: 400,
  [AuthErrorCode.ProviderError]: 502,
  [AuthErrorCode.InvalidIdToken]: 401,
  [AuthErrorCode.UnverifiedEmail]: 403,
  [AuthErrorCode.NotInvited]: 403,
  [AuthErrorCode.AccountBeingErased]: 409,
  [AuthErrorCode.AlreadyInvited]: 409,
  [AuthErrorCode.InviteNotFound]: 404,
  [AuthErrorCode.LoginProviderNotFound]: 404,
  [AuthErrorCode.LoginProviderExists]: 409,
  [AuthErrorCode.PrivateServiceUrl]: 400,
  [AuthErrorCode.InsecureServiceUrl]: 400,
};

export class AuthError extends AppError {
  constructor(code: AuthErrorCode, message: Text) {
    super(STATUS[code], code, message);
  }
}
