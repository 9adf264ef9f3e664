import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { AuditService } from './audit.service.js';
import { AUDITED_KEY, type AuditedContext, type AuditedSpec } from './public/audited-spec.js';

/**
 * Records an @Audited endpoint's outcome once it has answered (or failed, for `onError`). Applied
 * by the @Audited decorator to those routes only: other routes run with no interceptor at all.
 * Where a record comes from (IP, browser, the signed-in person) is read from the request scope.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditedSpec | undefined>(AUDITED_KEY, context.getHandler());
    if (context.getType() !== 'http' || !spec) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return from(
      (async () => {
        try {
          const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
          await this.write(spec, spec.action, request, result);
          return result;
        } catch (error) {
          if (spec.onError) await this.write(spec, spec.onError, request, undefined, error);
          throw error;
        }
      })(),
    );
  }
  private async write(spec: AuditedSpec, action: AuditedSpec['action'], request: FastifyRequest, result: unknown, error?: unknown) {
    const context: AuditedContext = {
      params: (request.params ?? {}) as Record<string, string>,
      query: (request.query && typeof request.query === 'object' ? request.query : {}) as Record<string, unknown>,
      body: (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>,
      result,
    };
    await this.audit.record({
      action,
      actor: spec.actor?.(context),
      target: spec.target?.(context),
      details: spec.details?.({ ...context, error }) ?? {},
    });
  }
}
