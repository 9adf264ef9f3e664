import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../../core/redis/redis.module.js';
import { sha256 } from './secrets.js';

/** RFC 9126 §2.2: the URN our request_uri values start with. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** How long a client has to send the browser to the authorization endpoint with a pushed request. */
export const PAR_LIFETIME_SECONDS = 60;

/** Once the consent page has opened it, how long the person has to sign in and decide (decision 0035). */
export const PAR_CONSENT_SECONDS = 600;

interface Pushed {
  clientId: string;
  params: Record<string, string>;
  /** The authorization endpoint has loaded it once: its lifetime was stretched to the consent window. */
  opened?: boolean;
}

/**
 * Pushed authorization requests (RFC 9126), kept in Redis under the SHA-256 of their request_uri
 * with a TTL, so every process sees them and nothing is left behind. A request_uri is bound to the
 * client that pushed it and spent by the consent decision that issues the code (or denies).
 */
@Injectable()
export class PushedRequests {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = `${config.queuePrefix}:oauth-par:`;
  }

  private key(requestUri: string): string {
    return `${this.prefix}${sha256(requestUri)}`;
  }

  /** Stores a checked request; answers its request_uri. */
  async push(clientId: string, params: Record<string, string>): Promise<string> {
    const requestUri = `${REQUEST_URI_PREFIX}${randomBytes(32).toString('base64url')}`;
    const value: Pushed = { clientId, params };
    await this.redis.set(this.key(requestUri), JSON.stringify(value), 'EX', PAR_LIFETIME_SECONDS);
    return requestUri;
  }

  /** The pushed parameters, if this request_uri is live and was pushed by this client; null otherwise. */
  async load(requestUri: string, clientId: string): Promise<Record<string, string> | null> {
    if (requestUri.length > 200) return null;
    const key = this.key(requestUri);
    const raw = await this.redis.get(key);
    if (!raw) return null;
    const pushed = JSON.parse(raw) as Pushed;
    if (pushed.clientId !== clientId) return null;
    if (!pushed.opened) {
      // The browser got here within the minute: the person now has the consent window (XX: never revives a spent one).
      await this.redis.set(key, JSON.stringify({ ...pushed, opened: true }), 'EX', PAR_CONSENT_SECONDS, 'XX');
    }
    return pushed.params;
  }

  /** Spends a request_uri: true for exactly one caller, in whichever process. */
  async spend(requestUri: string): Promise<boolean> {
    return (await this.redis.del(this.key(requestUri))) === 1;
  }
}
