import { AppError } from '../http/app-error.js';
import { msg } from '../i18n/messages.js';

export enum RateLimitErrorCode {
  TooManyRequests = 'too_many_requests',
}

/** 429 with `Retry-After` (whole seconds, at least 1): when the caller may try again. */
export class RateLimitError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, RateLimitErrorCode.TooManyRequests, msg('http.tooManyRequests', { seconds: retryAfterSeconds }), undefined, {
      'retry-after': String(retryAfterSeconds),
    });
  }
}
