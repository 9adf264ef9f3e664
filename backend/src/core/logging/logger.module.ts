import { RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../../config/config.js';
import { requestIdFor } from '../http/request-id.js';

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

/** pino JSON logs; every line of a request carries its request id (the bootstrap sends it back as X-Request-Id). */
export function loggerModule(config: AppConfig) {
  const pretty = config.env === 'development' && process.stdout.isTTY;
  return LoggerModule.forRoot({
    forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req) => {
        const raw = req as typeof req & { id?: string };
        raw.id ??= requestIdFor(req);
        return raw.id;
      },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url?.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      autoLogging: { ignore: (req) => req.url === '/api/health' },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      ...(pretty ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {}),
    },
  });
}
