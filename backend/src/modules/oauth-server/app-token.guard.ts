import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ProtocolService } from './protocol.service.js';
import type { AccessTokenInfo } from './token-store.service.js';

export type AppRequest = FastifyRequest & { appToken?: AccessTokenInfo };

/** Routes for third-party apps: a live OAuth access token (never a session token). */
@Injectable()
export class AppTokenGuard implements CanActivate {
  constructor(private readonly protocol: ProtocolService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AppRequest>();
    request.appToken = await this.protocol.appToken(request.headers.authorization);
    return true;
  }
}
