import { ApiError } from './api-client';

/**
 * What a failed call leaves in the browser console (decision 0022).
 *
 * - A handled API answer (`ApiError`: the server said no in `{error, message}`, and the page tells
 *   the person) is not a bug: one line at debug level (Chrome shows it under "Verbose"), with the
 *   spec's words, the status and the code, and no stack.
 * - A cancelled request (the page moved on) leaves nothing.
 * - Anything else (a malformed answer, the network, a bug in our code) is unexpected: logged as an
 *   error with its context and stack.
 */
export function reportError(context: string, error: unknown): void {
  if (error instanceof ApiError) {
    console.debug(`${context} (${error.status} ${error.code})`);
    return;
  }
  if (error instanceof DOMException && error.name === 'AbortError') return;
  console.error(context, error);
}
