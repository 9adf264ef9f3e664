import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { OneTimeStore } from '../../core/redis/one-time-store.js';

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

/** Pending sign-ins (single use, 10 minutes), on the shared one-time store. */
@Injectable()
export class LoginStateStore {
  private static readonly NAMESPACE = 'login-state';

  constructor(private readonly store: OneTimeStore) {}

  create(data: LoginState): Promise<string> {
    return this.store.create(LoginStateStore.NAMESPACE, data, LOGIN_STATE_TTL_SECONDS);
  }

  /** Returns and deletes the state: a second use finds nothing. */
  consume(state: string): Promise<LoginState | undefined> {
    return this.store.consume(LoginStateStore.NAMESPACE, state);
  }

  peek(state: string): Promise<LoginState | undefined> {
    return this.store.peek(LoginStateStore.NAMESPACE, state);
  }

  update(state: string, data: LoginState): Promise<void> {
    return this.store.update(LoginStateStore.NAMESPACE, state, data);
  }
}
