import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { RateLimitService, RememberedRateLimit, type LeasedRateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { OAuthProtocolError } from './oauth.errors.js';
import { basicCredentials } from './params.js';
import type { TokenEndpointCall } from './public/commands.js';

/**
 * Rate limits of the token-side endpoints (token, revocation, introspection): requests per client
 * and IP, and failed client authentications per IP (an IP over that limit is refused before its
 * credentials are even looked at). Both are shared by every process through Redis, and neither
 * costs a Redis round trip on the usual path (decision 0017): the per-client limit is counted
 * against leases of its shared counter, and an IP's "not blocked" answer is trusted for a second
 * (an IP this process blocks is refused at once; one another process blocks, within a second).
 */
@Injectable()
export class TokenEndpointLimits {
  private readonly perClient: LeasedRateLimit;
  private readonly authFailures: RememberedRateLimit;

  constructor(rateLimits: RateLimitService, @Inject(APP_CONFIG) config: AppConfig) {
    this.perClient = rateLimits.createLeased({ name: 'oauth:token', points: config.oauth.tokenRatePerMinute, durationSeconds: 60 });
    this.authFailures = new RememberedRateLimit(
      rateLimits.create({ name: 'oauth:client-auth-failures', points: config.oauth.clientAuthFailuresPer15Min, durationSeconds: 900 }),
    );
  }

  /** Runs `run` inside both limits; an invalid_client answer counts as a failed authentication. */
  async guarded<T>(call: TokenEndpointCall, run: () => Promise<T>): Promise<T> {
    const body = (call.body ?? {}) as Record<string, unknown>;
    // The client's id as the server will read it (Basic decoded: percent-encoding one id many ways makes no new keys).
    const clientHint = (typeof body.client_id === 'string' ? body.client_id : (basicCredentials(call.headers.authorization)?.id ?? '')).slice(0, 200);
    await this.authFailures.check(call.ip);
    await this.perClient.consume(`${call.ip}|${clientHint}`);
    try {
      return await run();
    } catch (error) {
      if (error instanceof OAuthProtocolError && error.code === 'invalid_client') await this.authFailures.consume(call.ip);
      throw error;
    }
  }
}
