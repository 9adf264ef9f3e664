import { WithinTimeoutError } from '../util/within.js';

/** Which shared service did not answer, when an error says so. */
export type Dependency = 'database' | 'redis' | 'network';

/** Node's codes for a connection that could not be made or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of a server that is going away or not taking connections: class 08
 * (connection exception), 57P01-57P03 (shut down by an admin or a crash, still starting up),
 * 53300 (too many connections).
 */
const isUnavailableSqlState = (code: string) => /^08/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';

/** What node-postgres and its pool say when the server is gone or does not answer in time. */
const DATABASE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

/** What ioredis says when Redis is gone (`maxRetriesPerRequest`, `commandTimeout`, no offline queue). */
const REDIS_MESSAGES = ['Connection is closed.', 'Command timed out', "Stream isn't writeable and enableOfflineQueue options is false"];

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

function classify(error: ErrorLike): Dependency | undefined {
  const name = typeof error.name === 'string' ? error.name : '';
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  if (error instanceof WithinTimeoutError) return 'network';
  if (name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.includes(message)) return 'redis';
  // MikroORM wraps driver errors in DriverException / ConnectionException, keeping `code`.
  if (name === 'ConnectionException' || DATABASE_MESSAGES.some((text) => message.startsWith(text))) return 'database';
  if (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)) return 'database';
  // A MikroORM DriverException carrying Node's code: the database connection failed.
  if (NETWORK_CODES.has(code)) return name.endsWith('Exception') ? 'database' : 'network';
  return undefined;
}

/**
 * Whether `error` means that PostgreSQL, Redis or another service the app needs is away (refused,
 * cut, or not answering in time), looking through `cause` chains. Such a request is answered
 * 503 with Retry-After instead of 500: nothing is wrong with the request, it can be repeated.
 */
export function dependencyOutage(error: unknown): Dependency | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const found = classify(current as ErrorLike);
    if (found) return found;
    current = (current as ErrorLike).cause;
  }
  return undefined;
}
