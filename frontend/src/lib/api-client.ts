import type { ApiError as ApiErrorBody } from '@life/contracts';
import i18n from '@/i18n/i18n';
import type { z } from 'zod';
import { afterFirstPaint } from './first-paint';
import { clearSession, getAuthToken } from './session';

/** Any non-2xx answer from the API. `code` is the server's machine-readable `error` field. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Field problems of a `validation_failed` answer. */
  readonly details: readonly FieldProblem[];

  constructor(status: number, code: string, message: string, details: readonly FieldProblem[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/** The code of an error answer that had no `{error, message}` body (its message is only the status text). */
const NON_JSON_ERROR = 'http_error';

export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * What to tell a person about a failed call: the field problems of a validation error
 * (their messages are written for people; the summary is generic), else the server's message.
 * Undefined for network failures and anything that is not an API answer.
 */
export function apiErrorMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.code === NON_JSON_ERROR) return undefined;
  if (error.details.length > 0) return error.details.map((problem) => problem.message).join(' ');
  return error.message || undefined;
}

/**
 * The language on screen, sent as `Accept-Language` with every call: the API answers its
 * messages (errors, validation problems, what an app's permissions mean) in it.
 */
export function languageHeaders(): Record<string, string> {
  return { 'Accept-Language': i18n.language || 'es' };
}

type UnauthorizedHandler = () => void;

let onUnauthorized: UnauthorizedHandler = () => window.location.assign('/');

/** The router registers a client-side navigation to `/` here; until then a full page load is used. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

/**
 * How a call validates its answer: a zod schema, or a function that loads one. Code on the landing
 * page passes a loader (`() => import('./schemas').then((m) => m.XSchema)`), so zod and the
 * schema are fetched with the first answer that needs them, after the page's first paint
 * (issue 15).
 */
export type AnswerSchema = z.ZodType | (() => Promise<z.ZodType>);

export interface RequestOptions<TSchema extends AnswerSchema | undefined = undefined> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialised as JSON. */
  body?: unknown;
  /** Validates the JSON answer (a schema or its loader); without it the parsed JSON is returned untyped. */
  schema?: TSchema;
  /** Send the bearer token (default true). The login callback and consent info fetch do not. */
  auth?: boolean;
  /** Skip the 401 policy (clear session + go home), e.g. for logout itself. */
  ignoreUnauthorized?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type Result<TSchema> = TSchema extends z.ZodType
  ? z.output<TSchema>
  : TSchema extends () => Promise<infer TLoaded extends z.ZodType>
    ? z.output<TLoaded>
    : unknown;

/**
 * `ApiErrorSchema` checked by hand (every failed call reads it, and zod stays off the landing
 * page): `error` and `message` strings, `details` absent or a list of `{path, message}` strings.
 */
export function toApiErrorBody(value: unknown): ApiErrorBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const { error, message, details, requestId } = value as Record<string, unknown>;
  if (typeof error !== 'string' || typeof message !== 'string') return null;
  if (requestId !== undefined && typeof requestId !== 'string') return null;
  if (details === undefined) return { error, message, ...(requestId === undefined ? {} : { requestId }) };
  if (!Array.isArray(details)) return null;
  const problems: FieldProblem[] = [];
  for (const problem of details as unknown[]) {
    if (typeof problem !== 'object' || problem === null) return null;
    const { path, message: text } = problem as Record<string, unknown>;
    if (typeof path !== 'string' || typeof text !== 'string') return null;
    problems.push({ path, message: text });
  }
  return { error, message, details: problems, ...(requestId === undefined ? {} : { requestId }) };
}

async function readError(response: Response): Promise<ApiError> {
  let code = NON_JSON_ERROR;
  let message = response.statusText || `HTTP ${response.status}`;
  let details: FieldProblem[] = [];
  try {
    const body = toApiErrorBody(await response.json());
    if (body) {
      code = body.error;
      message = body.message;
      details = body.details ?? [];
    }
  } catch {
    // Not JSON (e.g. a proxy error page): keep the status text.
  }
  return new ApiError(response.status, code, message, details);
}

/** The single place the SPA talks to its backend (same origin). */
export async function apiRequest<TSchema extends AnswerSchema | undefined = undefined>(
  path: string,
  options: RequestOptions<TSchema> = {},
): Promise<Result<TSchema>> {
  const { method = 'GET', body, schema, auth = true, ignoreUnauthorized = false, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...languageHeaders(), ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = auth ? getAuthToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;

  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });

  if (!response.ok) {
    if (response.status === 401 && !ignoreUnauthorized) {
      clearSession();
      onUnauthorized();
    }
    throw await readError(response);
  }

  if (response.status === 204) return undefined as Result<TSchema>;
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  // A loader runs once the answer is here and the page has painted: the landing page's first call
  // must not fetch zod while the page is on its way to its first paint (cached after that).
  const source: AnswerSchema | undefined = schema;
  const validator = typeof source === 'function' ? await afterFirstPaint().then(source) : source;
  return (validator ? validator.parse(data) : data) as Result<TSchema>;
}

/** A file the API answers as an attachment, and the name it suggests (Content-Disposition). */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

/**
 * GETs a file with the same bearer token and 401 policy as `apiRequest` (a plain link cannot
 * carry the token), for the caller to save. Errors are `ApiError`s as usual.
 */
export async function apiDownload(path: string, options: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
  const headers: Record<string, string> = { Accept: 'application/json', ...languageHeaders() };
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { headers, signal: options.signal });
  if (!response.ok) {
    if (response.status === 401) {
      clearSession();
      onUnauthorized();
    }
    throw await readError(response);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}
