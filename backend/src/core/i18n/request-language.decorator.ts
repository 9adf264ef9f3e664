import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestLanguage } from './language.js';

/** The language this request is answered in (negotiated from Accept-Language, Spanish by default). */
export const RequestLanguage = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  requestLanguage(context.switchToHttp().getRequest<FastifyRequest>()),
);
