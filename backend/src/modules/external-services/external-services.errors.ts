import { AppError } from '../../core/http/app-error.js';
import type { Text } from '../../core/i18n/messages.js';

export enum ServicesErrorCode {
  UnknownService = 'unknown_service',
  LoginTypeService = 'login_type_service',
  ServiceNotActive = 'service_not_active',
  ServiceNotConfigured = 'service_not_configured',
  InvalidState = 'invalid_state',
  ProviderError = 'provider_error',
  NotConnected = 'not_connected',
  NoCredentials = 'no_credentials',
  NeedsReconnect = 'needs_reconnect',
  ServiceExists = 'service_exists',
  InsecureServiceUrl = 'insecure_service_url',
  PrivateServiceUrl = 'private_service_url',
  InvalidRegion = 'invalid_region',
}

const STATUS: Record<ServicesErrorCode, number> = {
  [ServicesErrorCode.UnknownService]: 404,
  [ServicesErrorCode.LoginTypeService]: 400,
  [ServicesErrorCode.ServiceNotActive]: 409,
  [ServicesErrorCode.ServiceNotConfigured]: 503,
  [ServicesErrorCode.InvalidState]: 400,
  [ServicesErrorCode.ProviderError]: 502,
  [ServicesErrorCode.NotConnected]: 404,
  [ServicesErrorCode.NoCredentials]: 404,
  [ServicesErrorCode.NeedsReconnect]: 409,
  [ServicesErrorCode.ServiceExists]: 409,
  [ServicesErrorCode.InsecureServiceUrl]: 400,
  [ServicesErrorCode.PrivateServiceUrl]: 400,
  [ServicesErrorCode.InvalidRegion]: 400,
};

export class ServicesError extends AppError {
  constructor(code: ServicesErrorCode, message: Text) {
    super(STATUS[code], code, message);
  }
}
