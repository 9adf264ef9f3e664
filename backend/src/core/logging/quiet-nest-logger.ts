import type { LoggerService } from '@nestjs/common';

/**
 * Nest's own start-up chatter: a line per module initialised, per controller and per route
 * mapped (about 110 lines before "Life is running at…"), and its "starting"/"started" lines.
 * Useful when debugging routing, noise otherwise: these go out at debug (`LOG_LEVEL=debug`
 * shows them again). Every other line keeps its level.
 */
export const NEST_BOOT_CONTEXTS: ReadonlySet<string> = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Nest's logger (nestjs-pino's) with Nest's start-up lines (NEST_BOOT_CONTEXTS) moved to debug. */
export class QuietNestLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    // Nest passes the context last (`Logger.log(message, 'RouterExplorer')`).
    const context = params.at(-1);
    if (typeof context === 'string' && NEST_BOOT_CONTEXTS.has(context)) this.inner.debug?.(message, ...params);
    else this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.inner.fatal?.(message, ...params);
  }
}
