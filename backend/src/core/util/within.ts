/** A call guarded by `within` did not answer in time (a 503 if it reaches the HTTP layer). */
export class WithinTimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'WithinTimeoutError';
  }
}

/** Resolves or rejects within `ms`: for calls that must never hold a request (Redis or a database away). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new WithinTimeoutError(ms)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
