import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import type { ZodType } from 'zod';
import type { Language } from '@life/contracts';
import { requestLanguage } from '../i18n/language.js';
import { msg } from '../i18n/messages.js';
import { issueText, zodErrorMap } from '../i18n/zod-locale.js';
import { ValidationError, type FieldProblem } from './app-error.js';
import { CONTRACT_KEY, type ContractSpec } from './contract.js';

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

/** Validates params, query and body against the handler's @Contract before the handler runs. */
@Injectable()
export class ContractInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<ContractSpec | undefined>(CONTRACT_KEY, context.getHandler());
    if (spec && context.getType() === 'http') {
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
    return next.handle();
  }
}
