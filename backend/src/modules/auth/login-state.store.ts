import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../../core/redis/redis.module.js';

export const LOGIN_STATE_TTL_SECONDS = 600;

export interface LoginState {
  provider: string;
  codeVerifier: string;
  nonce: string;
  /** SHA-256 of the random value in this browser's `life_login` cookie. */
  browserHash: string;
  returnTo?: string;
  /** Apple sends the person's name once, in its form_post. */
  appleName?: string;
}

export const hashBrowserBinding = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Pending sign-ins, in Redis so any web process can finish what another began.
 * A state is single use (GETDEL) and expires after 10 minutes.
 */
@Injectable()
export class LoginStateStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private key(state: string): string {
    return `${this.config.queuePrefix}:login-state:${state}`;
  }

  async create(data: LoginState): Promise<string> {
    const state = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(state), JSON.stringify(data), 'EX', LOGIN_STATE_TTL_SECONDS);
    return state;
  }

  /** Returns and deletes the state: a second use finds nothing. */
  async consume(state: string): Promise<LoginState | undefined> {
    const raw = await this.redis.getdel(this.key(state));
    return raw ? (JSON.parse(raw) as LoginState) : undefined;
  }

  async peek(state: string): Promise<LoginState | undefined> {
    const raw = await this.redis.get(this.key(state));
    return raw ? (JSON.parse(raw) as LoginState) : undefined;
  }

  async update(state: string, data: LoginState): Promise<void> {
    await this.redis.set(this.key(state), JSON.stringify(data), 'KEEPTTL', 'XX');
  }
}
