import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { ProtocolService } from './protocol.service.js';
import type { AccessTokenInfo } from './token-store.service.js';

/** Passport strategy 'app-token': a live OAuth access token of a third-party app (never a session token). */
@Injectable()
export class AppTokenStrategy extends PassportStrategy(Strategy, 'app-token') {
  constructor(private readonly protocol: ProtocolService) {
    super();
  }

  validate(request: FastifyRequest): Promise<AccessTokenInfo> {
    // Throws the OAuth errors (invalid_token with its WWW-Authenticate) the resource API answers.
    return this.protocol.appToken(request);
  }
}
