import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import { MikroORM } from '@mikro-orm/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { answerClientError, answerFrameworkError } from './core/http/client-errors.js';
import type { INestApplicationContext } from '@nestjs/common';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { ConfigError, loadConfig, type AppConfig } from './config/config.js';
import { type KeyRing, KeyRingError, loadKeyRing } from './core/crypto/key-ring.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './core/database/embedded-postgres.js';
import { requestIdFor } from './core/http/request-id.js';
import { closeIdleConnectionsUntilClosed, Stopping } from './core/lifecycle/stopping.js';
import { securityHeaders } from './core/http/security-headers.js';
import { corsHandler } from './core/http/cors.js';
import { enterRequestScope } from './core/http/request-scope.js';
import { ROOT_LOGGER } from './core/core.module.js';
import { requestLogHook } from './core/logging/logger.module.js';
import { QuietNestLogger } from './core/logging/quiet-nest-logger.js';
import type { Logger as PinoLogger } from 'pino';
import { isNegotiatedPage, pathOf, wantsHtml, SpaIndex } from './core/http/spa.js';
import type { ProcessRole } from './core/queue/process-role.js';
import { startQueueWorkers } from './core/queue/worker-options.js';
import { assertRedisReachable, RedisUnavailableError } from './core/redis/redis-check.js';

const BODY_LIMIT_BYTES = 1024 * 1024;

export interface Runtime {
  config: AppConfig;
  databaseUrl: string;
  keyRing: KeyRing;
  embedded?: EmbeddedPostgres;
  generatedKey: boolean;
}

/** Everything that must hold before Nest starts: config, Redis, the database, the key ring. */
export async function prepareRuntime(role: ProcessRole, env: NodeJS.ProcessEnv = process.env, config: AppConfig = loadConfig(env)): Promise<Runtime> {
  const { ring, generated } = loadKeyRing(config.encryptionKeys, config.dataDir, config.isProduction);
  await assertRedisReachable(config.redisUrl);
  if (config.databaseUrl) return { config, databaseUrl: config.databaseUrl, keyRing: ring, generatedKey: generated };
  if (role === 'worker') {
    throw new ConfigError(
      'A separate worker process needs DATABASE_URL: the embedded database lives inside the web process.\n' +
        'Run `npm start` (web and worker in one process) or set DATABASE_URL for both processes.',
    );
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedDbPort);
  return { config, databaseUrl: embedded.url, keyRing: ring, embedded, generatedKey: generated };
}

function swaggerUiDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** The HTTP application (not yet listening): API, SPA, docs, headers. */
export async function createWebApp(runtime: Runtime, role: Exclude<ProcessRole, 'worker'>): Promise<NestFastifyApplication> {
  const { config } = runtime;
  const adapter = new FastifyAdapter({
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: 300 },
    // Refused before any route runs, still in our JSON shape (core/http/client-errors.ts).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Stopping (decision 0029): an idle keep-alive connection closes when it has been idle this
    // long (longer than the load balancer's own idle timeout, so the balancer closes it first), and
    // at once when the server closes (idle: every connection with no request under way). A request
    // that arrives on an open connection while the server closes is still served (with
    // `Connection: close`) instead of answered 503: the load balancer has already been told, by
    // the readiness probe during the drain, to stop sending.
    keepAliveTimeout: config.keepAliveTimeoutMs,
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    // One id per request, reused from a load balancer's X-Request-Id when well-formed;
    // kept on the raw request so pino-http logs the same id.
    genReqId: (req: IncomingMessage) => {
      const raw = req as typeof req & { id?: string };
      raw.id ??= requestIdFor(req);
      return raw.id;
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config, databaseUrl: runtime.databaseUrl, keyRing: runtime.keyRing, role }),
    adapter,
    { bufferLogs: true, rawBody: true },
  );
  app.useLogger(new QuietNestLogger(app.get(Logger)));
  const fastify = app.getHttpAdapter().getInstance();
  const spa = app.get(SpaIndex);

  // Security headers (CSP, HSTS on https, referrer policy, frame options), computed once at start.
  const security = securityHeaders(config.appUrl, { varyOnOrigin: config.corsOrigins.length > 0 });
  // CORS for the configured origins only (core/http/cors.ts).
  const cors = corsHandler(config.corsOrigins);
  // Each request's unit of work is forked from this app's root EntityManager, on first use.
  const rootEm = app.get(MikroORM).em;
  // Told to stop: still serving until the drain ends, each answer closing its connection.
  const stopping = app.get(Stopping);

  // Every answer: its request id and the security headers. The rest of the request runs in its
  // scope (core/http/request-scope: log lines' request id, audit facts, the database unit of
  // work). Pages that are also API calls: a browser navigation gets the SPA, fetch() gets JSON.
  // Synchronous: nothing here waits.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(security.default);
    if (stopping.requested) void reply.header('connection', 'close');
    void reply.header('x-request-id', request.id);
    if (cors(request, reply)) return;
    const pathname = pathOf(request.url);
    if (isNegotiatedPage(pathname) && wantsHtml(request)) {
      // The admin panel's Autorizar shows the consent page in a dialog: only this page, only to us.
      if (pathname === '/oauth/authorize') void reply.headers(security.framedBySelf);
      spa.send(reply);
      return;
    }
    enterRequestScope(request, rootEm, done);
  });
  fastify.addHook('onResponse', requestLogHook(app.get<PinoLogger>(ROOT_LOGGER)));
  // While the server closes, a connection whose last request was still running closes as soon as
  // it is idle rather than after its keep-alive timeout.
  fastify.addHook('preClose', async () => {
    closeIdleConnectionsUntilClosed(fastify.server);
  });

  // Cookies are read by the login callback alone (it parses them itself): no hook on every request.
  await app.register(cookie, { hook: false });
  await app.register(fastifyStatic, { root: swaggerUiDir(), prefix: '/api/docs/assets/', decorateReply: false, index: false });
  if (existsSync(config.staticDir)) {
    await app.register(fastifyStatic, {
      root: config.staticDir,
      prefix: '/',
      index: false,
      decorateReply: false,
      // The frontend build writes .br and .gz copies of its assets (frontend/scripts/compress-assets.mjs):
      // the smallest the browser accepts is sent as is, with Content-Encoding and Vary.
      preCompressed: true,
      // @fastify/static 10 passes the Fastify reply here. Hashed build assets never change.
      setHeaders: (reply: { header(name: string, value: string): unknown }, filePath: string) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  fastify.get('/', async (request, reply) =>
    wantsHtml(request) || !request.headers.accept?.includes('json')
      ? spa.send(reply)
      : reply.status(406).send({ error: 'not_acceptable', message: 'The home page is HTML.' }),
  );
  // Queue workers start only once every module has bootstrapped (command handlers, listeners,
  // schedules): see core/queue/worker-options.ts.
  await app.init();
  if (role === 'all') startQueueWorkers();
  return app;
}

export async function createWorkerContext(runtime: Runtime): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ config: runtime.config, databaseUrl: runtime.databaseUrl, keyRing: runtime.keyRing, role: 'worker' }),
    { bufferLogs: true },
  );
  app.useLogger(new QuietNestLogger(app.get(Logger)));
  await app.init();
  startQueueWorkers();
  return app;
}

/** Prints a clear message for the failures a newcomer can fix, and exits non-zero. */
export function exitOnStartupError(error: unknown): never {
  if (error instanceof ConfigError || error instanceof RedisUnavailableError || error instanceof KeyRingError) {
    console.error(`\n${error.message}\n`);
  } else {
    console.error('\nLife could not start:', error);
  }
  process.exit(1);
}

export interface StopPlan {
  /** From the signal to the exit, at most (SHUTDOWN_GRACE_MS): a process still closing then exits at once, with code 1. */
  graceMs: number;
  /** First, only if the process was already serving: report unready and keep serving a while (web processes). */
  drain?: () => Promise<void>;
  /** Then close: in-flight requests and running jobs finish, connections to PostgreSQL and Redis close. */
  close: () => Promise<void>;
}

/**
 * SIGTERM/SIGINT (decision 0029): drain (web), close, exit 0; and exit 1 at the latest `graceMs`
 * after the signal whatever is still closing, so an orchestrator never has to kill the process.
 * Install it before start-up and call the returned function once started: a signal that comes
 * while modules boot waits for the boot to finish, then closes cleanly (no drain: nobody has
 * been sent there yet).
 */
export function closeOnSignals(plan: StopPlan): () => void {
  let markStarted: () => void = () => undefined;
  let isStarted = false;
  const started = new Promise<void>((resolve) => (markStarted = resolve)).then(() => {
    isStarted = true;
  });
  let closing = false;
  const handler = (signal: string) => {
    if (closing) return;
    closing = true;
    const since = performance.now();
    const elapsed = () => Math.round(performance.now() - since);
    console.error(`Received ${signal}: stopping, and exiting in ${plan.graceMs} ms at the latest (SHUTDOWN_GRACE_MS).`);
    // Not unref'd: it must fire even if whatever hangs holds nothing else open.
    setTimeout(() => {
      console.error(`Still closing ${elapsed()} ms after ${signal}: exiting now (SHUTDOWN_GRACE_MS is ${plan.graceMs}).`);
      process.exit(1);
    }, plan.graceMs);
    const wasServing = isStarted;
    started
      .then(async () => {
        if (wasServing && plan.drain) await plan.drain();
        await plan.close();
      })
      .then(
        () => {
          console.error(`Stopped: everything closed in ${elapsed()} ms after ${signal}.`);
          process.exit(0);
        },
        (error: unknown) => {
          console.error('Shutdown failed:', error);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
  return markStarted;
}
