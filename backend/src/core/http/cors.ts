import type { FastifyReply, FastifyRequest } from 'fastify';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'authorization, content-type, x-request-id';
const EXPOSED_HEADERS = 'x-request-id, retry-after, www-authenticate';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * CORS for the configured origins only (third-party SPAs calling /oauth/token, /api/v1…); the
 * app itself is same-origin and needs none, and our APIs use bearer tokens, so no credentials.
 * Runs inside the onRequest hook and costs nothing for a request without an Origin header (the
 * CORS plugin's own hook cost about 12 µs on every request). Returns true when it answered a
 * preflight itself (204: with the allow headers for a configured origin, without them otherwise).
 */
export function corsHandler(origins: readonly string[]): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const allowed = new Set(origins);
  return (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined) return false;
    const permitted = allowed.has(origin);
    if (permitted) {
      void reply.header('access-control-allow-origin', origin);
      void reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return false;
    if (permitted) {
      void reply.header('access-control-allow-methods', ALLOWED_METHODS);
      void reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      void reply.header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
    }
    void reply.code(204).send();
    return true;
  };
}
