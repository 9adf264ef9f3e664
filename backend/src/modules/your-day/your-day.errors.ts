import { AppError } from '../../core/http/app-error.js';
import type { Text } from '../../core/i18n/messages.js';

export enum YourDayErrorCode {
  /** The service has no view (not one of DAY_SERVICES). */
  NoView = 'no_view',
  /** The person has not connected the service. */
  NotConnected = 'not_connected',
  /** The view is switched off: nothing is fetched. */
  ViewOff = 'view_off',
  InvalidTimeZone = 'invalid_time_zone',
  /** The provider refused or failed a write (a Hue light). */
  ProviderFailed = 'provider_failed',
  NeedsReconnect = 'needs_reconnect',
  UnknownLight = 'unknown_light',
  /** The provider asked us to wait (its Retry-After): "Actualizar" waits too. */
  ProviderAskedToWait = 'too_many_requests',
}

const STATUS: Record<YourDayErrorCode, number> = {
  [YourDayErrorCode.NoView]: 404,
  [YourDayErrorCode.NotConnected]: 404,
  [YourDayErrorCode.ViewOff]: 409,
  [YourDayErrorCode.InvalidTimeZone]: 400,
  [YourDayErrorCode.ProviderFailed]: 502,
  [YourDayErrorCode.NeedsReconnect]: 409,
  [YourDayErrorCode.UnknownLight]: 404,
  [YourDayErrorCode.ProviderAskedToWait]: 429,
};

export class YourDayError extends AppError {
  constructor(code: YourDayErrorCode, message: Text, headers?: Record<string, string>) {
    super(STATUS[code], code, message, undefined, headers);
  }
}
