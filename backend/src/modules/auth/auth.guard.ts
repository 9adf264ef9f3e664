import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import type { Role } from '@life/contracts';
import type { AuthenticatedRequest, AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { APP_TOKEN_KEY } from '../../core/http/app-token.decorator.js';
import { PUBLIC_KEY } from '../../core/http/public.decorator.js';
import { ROLES_KEY } from '../../core/http/roles.decorator.js';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import { msg } from '../../core/i18n/messages.js';

/**
 * Global guard: every route needs a live session (passport strategy 'session') unless marked
 * @Public(); @Roles('admin') routes also need that role. Enforced here, on the server.
 */
@Injectable()
export class AuthGuard extends PassportAuthGuard('session') {
  constructor(private readonly reflector: Reflector) {
    super({ property: 'auth', session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    // App routes have their own guard (AppTokenGuard): a session is not what they accept.
    if (this.reflector.getAllAndOverride<boolean>(APP_TOKEN_KEY, targets)) return true;

    await super.canActivate(context);
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().auth!;
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets);
    if (roles && !roles.includes(user.role)) throw new AuthError(AuthErrorCode.Forbidden, msg('auth.adminOnly'));
    return true;
  }

  /** The strategy's own errors (no token, ended session) reach the client as they are. */
  override handleRequest<TUser = AuthenticatedUser>(error: unknown, user: TUser | false): TUser {
    if (error) throw error;
    if (!user) throw new AuthError(AuthErrorCode.Unauthorized, msg('auth.sessionExpired'));
    return user;
  }
}
