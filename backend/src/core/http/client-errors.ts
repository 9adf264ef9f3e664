import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage } from '../i18n/language.js';
import { msg, render } from '../i18n/messages.js';
import { SOURCE_LANGUAGE } from '@life/contracts';

/**
 * Requests refused before any route runs still get our `{error, message}` shape: a path the router
 * cannot decode (broken percent-encoding), and what Node's HTTP parser refuses (headers or a query
 * string over its 16 KB limit: 431; anything unparsable: 400). Node never hands the parser's
 * refusals to Fastify as requests, so they have no headers to choose a language from: the message is
 * in the source language.
 */

/** Fastify's `frameworkErrors`: the router could not decode the path. */
export function answerFrameworkError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .code(400)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send({ error: 'bad_request', message: render(msg('http.unreadableRequest'), requestLanguage(request)), requestId: request.id });
}

/** Fastify's `clientErrorHandler`: Node's parser refused the request (or the client was too slow). */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // As Node's own handler: nothing is written on a socket that is gone or already carries an
  // answer (a pipelined request's), and the socket is always destroyed, never left half-open.
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || busy) {
    socket.destroy();
    return;
  }
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = timedOut ? '408 Request Timeout' : tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify(
    timedOut
      ? { error: 'request_timeout', message: render(msg('http.unreadableRequest'), SOURCE_LANGUAGE) }
      : tooLarge
        ? { error: 'request_header_fields_too_large', message: render(msg('http.headersTooLarge'), SOURCE_LANGUAGE) }
        : { error: 'bad_request', message: render(msg('http.unreadableRequest'), SOURCE_LANGUAGE) },
  );
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  // A client that never reads its answer does not keep the socket either.
  setTimeout(() => socket.destroy(), 1000).unref();
}
