import { Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { validateContract } from '../../core/http/contract.guard.js';
import type { AccessTokenInfo } from './token-store.service.js';

export type AppRequest = FastifyRequest & { appToken?: AccessTokenInfo };

/** Routes for third-party apps: passport strategy 'app-token' puts the token on `request.appToken`. */
@Injectable()
export class AppTokenGuard extends AuthGuard('app-token') {
  constructor() {
    super({ property: 'appToken', session: false });
  }

  /** The app's token first (401), then the request's contract (400): core's ContractGuard leaves app routes to us. */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    validateContract(context);
    return true;
  }

  override handleRequest<T = AccessTokenInfo>(error: unknown, token: T | false): T {
    if (error) throw error;
    if (!token) throw new Error('The app-token strategy answered without a token or an error');
    return token;
  }
}
