export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * Base of every module's error type. Modules subclass it with their own code enum;
 * the global filter maps it to `{ error: code, message }` with `status`.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(details: FieldProblem[], message = 'La petición no es válida.') {
    super(400, 'validation_failed', message, details);
  }
}
