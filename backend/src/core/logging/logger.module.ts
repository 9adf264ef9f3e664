import type { FastifyReply, FastifyRequest } from 'fastify';
import { LoggerModule } from 'nestjs-pino';
import { pino, type DestinationStream, type Level, type Logger as PinoLogger } from 'pino';
import type { AppConfig } from '../../config/config.js';
import { currentRequest } from '../http/request-scope.js';

/** Secrets that must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.app_secret',
  '*.access_token',
  '*.refresh_token',
  '*.authToken',
];

/**
 * The process's one pino logger: JSON lines, secrets redacted, and every line written while a
 * request runs carries that request's id (`req.id`, the X-Request-Id the answer sends back).
 * The id is added only to lines actually written (pino's mixin), so a request that logs
 * nothing pays nothing.
 */
export function createRootLogger(config: Pick<AppConfig, 'env' | 'logLevel'>, destination?: DestinationStream): PinoLogger {
  const pretty = config.env === 'development' && process.stdout.isTTY;
  const options = {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: () => {
      const request = currentRequest();
      return request ? { req: { id: request.id } } : {};
    },
    ...(pretty && !destination ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Nest's logger (nestjs-pino) over that root logger; no per-request middleware (see requestLogHook). */
export function loggerModule(root: PinoLogger) {
  return LoggerModule.forRoot({ pinoHttp: { logger: root }, forRoutes: [] });
}

/** A load balancer's and an orchestrator's probes, a few a second: not logged (a stopping process's 503s included). */
const HEALTH_PROBES = new Set(['/api/health', '/api/health/ready', '/api/health/live']);

const levelFor = (status: number): Level => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info');

/**
 * Fastify `onResponse` hook: one line per finished request (`request completed`, with its id,
 * method, path, status and time), at error for 5xx, warn for 4xx, info otherwise, and only when
 * that level is enabled. Health probes are not logged.
 */
export function requestLogHook(root: PinoLogger) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const status = reply.statusCode;
    const level = levelFor(status);
    if (root.isLevelEnabled(level) && !HEALTH_PROBES.has(request.url)) {
      root[level](
        {
          req: { id: request.id, method: request.method, url: request.url.split('?')[0] },
          res: { statusCode: status },
          responseTime: Math.round(reply.elapsedTime),
        },
        'request completed',
      );
    }
    done();
  };
}
