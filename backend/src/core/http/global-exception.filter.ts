import { ArgumentsHost, Catch, HttpException, HttpStatus, Logger, NotFoundException, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Language } from '@life/contracts';
import { requestLanguage } from '../i18n/language.js';
import { msg, render, type Text } from '../i18n/messages.js';
import { AppError } from './app-error.js';
import { dependencyOutage } from './dependency-outage.js';
import { isApiPath, pathOf, SpaIndex, wantsHtml } from './spa.js';

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
  503: 'service_unavailable',
};

export interface ErrorBody {
  error: string;
  message: string;
  /** RFC 6749 §5.2: OAuth endpoints repeat `message` here for OAuth clients. */
  error_description?: string;
  details?: { path: string; message: string }[];
  requestId?: string;
}

/** An error answer before its texts are rendered in the request's language. */
interface Answer {
  status: number;
  body: Omit<ErrorBody, 'message' | 'details'> & { message: Text; details?: { path: string; message: Text }[] };
  headers?: Record<string, string>;
}

/** Turns Fastify's own errors (body parsing, size limits, content types) into our shape. */
export function fastifyErrorToBody(error: { statusCode?: number; code?: string; message: string }): Answer | undefined {
  const status = error.statusCode;
  if (!status || status < 400 || status >= 500) return undefined;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { error: 'invalid_json', message: msg('http.invalidJson') } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { error: 'payload_too_large', message: msg('http.bodyTooLarge') } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { error: 'unsupported_media_type', message: msg('http.unsupportedMediaType') } };
    default:
      return { status, body: { error: CODES[status] ?? 'bad_request', message: status === 400 ? msg('http.unreadableRequest') : error.message } };
  }
}

/** Seconds a client should wait before repeating a request that met PostgreSQL or Redis away. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

const OAUTH_ENDPOINT = /^\/oauth\/(token|revoke|introspect|authorize|userinfo|par|logout)$/;
const NOT_OAUTH_CODES = new Set([
  'validation_failed',
  'bad_request',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'not_found',
  'method_not_allowed',
]);

/** On the OAuth endpoints every error is an RFC 6749 one: `invalid_request` for malformed input, plus `error_description`. */
function oauthShaped<T extends { status: number; body: ErrorBody; headers?: Record<string, string> }>(pathname: string, answer: T): T {
  if (!OAUTH_ENDPOINT.test(pathname) || answer.status >= 500) return answer;
  const error = NOT_OAUTH_CODES.has(answer.body.error) && answer.status !== 404 && answer.status !== 405 ? 'invalid_request' : answer.body.error;
  const description = answer.body.details?.length
    ? `${answer.body.message} ${answer.body.details.map((d) => `${d.path}: ${d.message}`).join('; ')}`
    : answer.body.message;
  return { ...answer, body: { ...answer.body, error, error_description: description } };
}

/** The texts of an error answer in the request's language (codes, paths and ids stay as they are). */
function localized(answer: Answer, language: Language): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  const { message, details, ...rest } = answer.body;
  return {
    ...answer,
    body: {
      ...rest,
      message: render(message, language),
      ...(details ? { details: details.map((problem) => ({ path: problem.path, message: render(problem.message, language) })) } : {}),
    },
  };
}

/** The answer while a service the app needs (PostgreSQL, Redis) is away: nothing is wrong with the request. */
function unavailable(): Answer {
  return {
    status: HttpStatus.SERVICE_UNAVAILABLE,
    body: { error: 'service_unavailable', message: msg('http.serviceUnavailable') },
    headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
  };
}

/**
 * The one place errors become HTTP answers: `{ error, message }` with the right status, never a
 * stack trace, the texts in the language the request asked for (Accept-Language). PostgreSQL or
 * Redis away (refused, cut, timed out) is a 503 with Retry-After; other unknown errors are logged
 * with the request id and answered as a generic 500 that quotes that id.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly spa: SpaIndex) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const requestId = String(request.raw?.id ?? request.id ?? '');

    if (exception instanceof NotFoundException && !(exception instanceof AppError)) {
      const pathname = pathOf(request.url);
      if (!isApiPath(pathname) && wantsHtml(request)) {
        this.spa.send(reply);
        return;
      }
    }

    // Errors the code chose (AppError, HttpException) keep their status; the rest may be an outage.
    const outage = exception instanceof AppError || exception instanceof HttpException ? undefined : dependencyOutage(exception);
    const answer = localized(outage ? unavailable() : this.toResponse(exception), requestLanguage(request));
    const { status, body, headers } = oauthShaped(pathOf(request.url), answer);
    if (outage) {
      // Expected while PostgreSQL or Redis is away: one line per request, no stack.
      this.logger.warn({ requestId, dependency: outage, reason: exception instanceof Error ? exception.message : String(exception) }, 'Service unavailable');
    } else if (status >= 500) {
      this.logger.error({ err: exception, requestId }, 'Unhandled error');
    }
    if (reply.sent) return;
    for (const [name, value] of Object.entries(headers ?? {})) reply.header(name, value);
    reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send({ ...body, requestId: requestId || undefined });
  }

  private toResponse(exception: unknown): Answer {
    if (exception instanceof AppError) {
      return {
        status: exception.status,
        body: { error: exception.code, message: exception.text, ...(exception.details ? { details: exception.details } : {}) },
        headers: exception.headers,
      };
    }
    if (exception instanceof HttpException) {
      const cause = exception.cause as { statusCode?: number; code?: string; message?: string } | undefined;
      if (typeof cause?.code === 'string' && cause.code.startsWith('FST_')) {
        const mapped = fastifyErrorToBody({ statusCode: exception.getStatus(), code: cause.code, message: cause.message ?? '' });
        if (mapped) return mapped;
      }
      const status = exception.getStatus();
      const response = exception.getResponse();
      if (
        typeof response === 'object' &&
        response !== null &&
        'error' in response &&
        'message' in response &&
        typeof response.error === 'string' &&
        typeof response.message === 'string' &&
        !('statusCode' in response)
      ) {
        return { status, body: response as ErrorBody };
      }
      const message = status === 404 ? msg('http.notFound') : status >= 500 ? msg('http.serverError') : exception.message;
      return { status, body: { error: CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request'), message } };
    }
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { error: 'internal_error', message: msg('http.unexpectedError') },
    };
  }
}
