import { AppError } from '../http/app-error.js';

export enum RateLimitErrorCode {
  TooManyRequests = 'too_many_requests',
}

/** 429 with `Retry-After` (whole seconds, at least 1): when the caller may try again. */
export class RateLimitError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, RateLimitErrorCode.TooManyRequests, `Demasiadas peticiones: vuelve a intentarlo dentro de ${retryAfterSeconds} s.`, undefined, {
      'retry-after': String(retryAfterSeconds),
    });
  }
}
