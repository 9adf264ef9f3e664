import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Observable, lastValueFrom } from 'rxjs';
import type { AuthenticatedRequest } from '../../core/http/current-user.decorator.js';
import { auditContext, type AuditRequestContext } from './audit-context.js';
import { AuditService } from './audit.service.js';
import { AUDITED_KEY, type AuditedContext, type AuditedSpec } from './public/audited.decorator.js';

/**
 * Runs every HTTP handler inside an audit context (IP, user agent, the signed-in person), so
 * services can record security events with their origin; records @Audited endpoints' outcome.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & FastifyRequest>();
    const store: AuditRequestContext = {
      ip: request.ip,
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
      actorId: request.auth?.id,
      actorLabel: request.auth?.email,
    };
    const spec = this.reflector.get<AuditedSpec | undefined>(AUDITED_KEY, context.getHandler());
    return new Observable((subscriber) => {
      auditContext.run(store, () => {
        const run = async () => {
          try {
            const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
            if (spec) await this.write(spec, spec.action, request, result);
            return result;
          } catch (error) {
            if (spec?.onError) await this.write(spec, spec.onError, request, undefined, error);
            throw error;
          }
        };
        run().then(
          (value) => {
            subscriber.next(value);
            subscriber.complete();
          },
          (error: unknown) => subscriber.error(error),
        );
      });
    });
  }

  private async write(spec: AuditedSpec, action: AuditedSpec['action'], request: FastifyRequest, result: unknown, error?: unknown) {
    const context: AuditedContext = {
      params: (request.params ?? {}) as Record<string, string>,
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
