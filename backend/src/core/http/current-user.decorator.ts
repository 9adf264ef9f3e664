import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

export interface AuthenticatedUser {
  id: string;
  email: string;
  username: string;
  role: 'user' | 'admin';
  sessionId: string;
  token: string;
}

export type AuthenticatedRequest = FastifyRequest & { auth?: AuthenticatedUser };

/** The signed-in person, set by the AuthGuard. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedUser => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return request.auth!;
});
