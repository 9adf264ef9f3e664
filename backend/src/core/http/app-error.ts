import { msg, render, type Text } from '../i18n/messages.js';

export interface FieldProblem {
  path: string;
  /** A message id with its values, or zod's own words (already in the request's language). */
  message: Text;
}

/**
 * Base of every module's error type. Modules subclass it with their own code enum; the global
 * filter maps it to `{ error: code, message }` with `status`, rendering `text` in the request's
 * language. `message` is the Spanish rendering, for logs.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly text: Text,
    readonly details?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(render(text));
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(details: FieldProblem[], message: Text = msg('http.invalidRequest')) {
    super(400, 'validation_failed', message, details);
  }
}
