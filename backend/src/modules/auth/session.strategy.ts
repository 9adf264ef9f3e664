import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { bearerToken } from '../../core/http/bearer-token.js';
import type { AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import { SessionService } from './session.service.js';
import { msg } from '../../core/i18n/messages.js';

/**
 * Passport strategy 'session': the web app's bearer session token, from the Authorization header
 * only (never a query string or a body, where it would leak into logs and histories).
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(private readonly sessions: SessionService) {
    super();
  }

  async validate(request: FastifyRequest): Promise<AuthenticatedUser> {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new AuthError(AuthErrorCode.Unauthorized, msg('auth.signInRequired'));
    const live = await this.sessions.authenticatePerson(token);
    if (!live) throw new AuthError(AuthErrorCode.Unauthorized, msg('auth.sessionExpired'));
    const { sessionId, person } = live;
    return { id: person.id, email: person.email, username: person.username, role: person.role, sessionId, token };
  }
}
