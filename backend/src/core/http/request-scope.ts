import { AsyncLocalStorage } from 'node:async_hooks';
import { RequestContext, type EntityManager } from '@mikro-orm/core';

/** The HTTP request a piece of code runs for, as far as logging, auditing and the database need it. */
export interface RequestFacts {
  readonly id: string;
  readonly ip: string;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
  /** The signed-in person, once the guard has set it. */
  readonly auth?: { id: string; email: string };
}

interface RequestStore {
  readonly request: RequestFacts;
  /** The application's root EntityManager (per app: a test process may run several). */
  readonly root: EntityManager;
  /** This request's unit of work, forked on first use (a request that never touches the database never forks one). */
  em?: EntityManager;
}

/**
 * One AsyncLocalStorage for everything that follows a request: its id (log lines), where it
 * comes from and who made it (audit records), and its database unit of work. Entered once per
 * request by a synchronous Fastify hook, instead of a middleware layer per concern.
 */
const storage = new AsyncLocalStorage<RequestStore>();

/** Runs `next` (the rest of the request's lifecycle) inside the request's scope. */
export function enterRequestScope(request: RequestFacts, root: EntityManager, next: () => void): void {
  storage.run({ request, root }, next);
}

/** The current request, or undefined outside one (a queue worker, the CLI, startup). */
export const currentRequest = (): RequestFacts | undefined => storage.getStore()?.request;

/**
 * MikroORM's `context` option: which EntityManager the injected (global) one stands for right
 * now. An explicit RequestContext (`@CreateRequestContext`, `RequestContext.create`) wins; inside
 * an HTTP request it is the request's own fork, made the first time it is needed.
 */
export function contextEntityManager(name: string): EntityManager | undefined {
  const explicit = RequestContext.getEntityManager(name);
  if (explicit) return explicit;
  const store = storage.getStore();
  if (!store) return undefined;
  store.em ??= store.root.fork({ disableContextResolution: true });
  return store.em;
}
