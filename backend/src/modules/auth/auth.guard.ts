import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Role } from '@life/contracts';
import type { AuthenticatedRequest } from '../../core/http/current-user.decorator.js';
import { APP_TOKEN_KEY } from '../../core/http/app-token.decorator.js';
import { PUBLIC_KEY } from '../../core/http/public.decorator.js';
import { ROLES_KEY } from '../../core/http/roles.decorator.js';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import { SessionService } from './session.service.js';

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header.trim());
  return match?.[1];
}

/**
 * Global guard: every route needs a live session unless marked @Public();
 * @Roles('admin') routes also need that role. Enforced here, on the server.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    // App routes have their own guard (AppTokenGuard): a session is not what they accept.
    if (this.reflector.getAllAndOverride<boolean>(APP_TOKEN_KEY, targets)) return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new AuthError(AuthErrorCode.Unauthorized, 'Inicia sesión primero: esto necesita una sesión válida.');
    const session = await this.sessions.authenticate(token);
    if (!session) throw new AuthError(AuthErrorCode.Unauthorized, 'La sesión ha caducado o se cerró. Vuelve a iniciar sesión.');
    const user = session.user;
    request.auth = { id: user.id, email: user.email, username: user.username, role: user.role, sessionId: session.id, token };

    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets);
    if (roles && !roles.includes(user.role)) throw new AuthError(AuthErrorCode.Forbidden, 'Esto solo pueden hacerlo los administradores.');
    return true;
  }
}
