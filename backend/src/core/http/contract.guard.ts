import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { Language } from '@life/contracts';
import { requestLanguage } from '../i18n/language.js';
import { msg } from '../i18n/messages.js';
import { issueText, zodErrorMap } from '../i18n/zod-locale.js';
import { ValidationError, type FieldProblem } from './app-error.js';
import { APP_TOKEN_KEY } from './app-token.decorator.js';
import { CONTRACT_KEY, type ContractSpec } from './contract.js';
import { PUBLIC_KEY } from './public.decorator.js';

/** Zod's own messages come in the request's language; messages our schemas set are ids the error filter renders in it. */
function parsePart(schema: ZodType, value: unknown, part: 'params' | 'query' | 'body', language: Language): unknown {
  const result = schema.safeParse(value, { error: zodErrorMap(language) });
  if (result.success) return result.data;
  const details: FieldProblem[] = result.error.issues.slice(0, 20).map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issueText(issue),
  }));
  throw new ValidationError(details);
}

/** PostgreSQL text cannot hold NUL, and no field of ours has a use for it: refuse it everywhere. */
function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > 20 || value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = key.includes('\u0000') ? `${path}.${key}` : findNul(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

interface HandlerFacts {
  spec: ContractSpec | null;
  /** The answer depends on who asks (a session or an app's token): `Cache-Control: no-store`. */
  personal: boolean;
}

const facts = new WeakMap<object, HandlerFacts>();

/** What the guard needs to know of a handler, read once from its metadata and remembered. */
function factsOf(context: ExecutionContext): HandlerFacts {
  const handler = context.getHandler();
  let known = facts.get(handler);
  if (!known) {
    const spec = (Reflect.getMetadata(CONTRACT_KEY, handler) as ContractSpec | undefined) ?? null;
    // Without a contract, whatever is not @Public() needs a session, so it is personal too.
    const isPublic = Boolean(Reflect.getMetadata(PUBLIC_KEY, handler) ?? Reflect.getMetadata(PUBLIC_KEY, context.getClass()));
    known = { spec, personal: spec ? spec.access !== 'public' : !isPublic };
    facts.set(handler, known);
  }
  return known;
}

/**
 * Validates params, query and body of an HTTP request against its handler's @Contract and hands
 * the handler the parsed values (400 `validation_failed` otherwise). The handler's spec is read
 * once and remembered.
 */
export function validateContract(context: ExecutionContext): void {
  if (context.getType() !== 'http') return;
  const { spec } = factsOf(context);
  if (!spec) return;
  const request = context.switchToHttp().getRequest<FastifyRequest & { params: unknown; query: unknown; body: unknown }>();
  for (const part of ['params', 'query', 'body'] as const) {
    const where = findNul(request[part], part);
    if (where) throw new ValidationError([{ path: where, message: msg('http.nulCharacter') }]);
  }
  const language = requestLanguage(request);
  if (spec.params) request.params = parsePart(spec.params, request.params ?? {}, 'params', language);
  if (spec.query) request.query = parsePart(spec.query, request.query ?? {}, 'query', language);
  if (spec.body) request.body = parsePart(spec.body, request.body ?? {}, 'body', language);
}

/**
 * The global contract check. A guard, not an interceptor: Nest's interceptor chain (rxjs) then
 * stays off every route without an interceptor of its own. Registered right after the session
 * guard (auth module), so an anonymous caller gets 401 before any 400; an app route
 * (@AppTokenOnly) is checked by its own guard once the app's token is known, for the same reason.
 */
@Injectable()
export class ContractGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    // Every answer that depends on the session or an app's token (access session, admin or app)
    // must not be kept by a browser or shared cache: one header, set here for all of them.
    // Public answers (site, health, JWKS, discovery, assets) keep their own caching.
    if (factsOf(context).personal) void context.switchToHttp().getResponse<FastifyReply>().header('cache-control', 'no-store');
    if (
      this.reflector.get<boolean | undefined>(APP_TOKEN_KEY, context.getHandler()) ||
      this.reflector.get<boolean | undefined>(APP_TOKEN_KEY, context.getClass())
    )
      return true;
    validateContract(context);
    return true;
  }
}
