import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from './redis.module.js';

/**
 * Short-lived, single-use values in Redis under an unguessable key (256 bits): OAuth `state`
 * of sign-ins and connections. Any process can finish what another began; GETDEL makes a
 * second use find nothing.
 */
@Injectable()
export class OneTimeStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private key(namespace: string, id: string): string {
    return `${this.config.queuePrefix}:${namespace}:${id}`;
  }

  async create<T>(namespace: string, data: T, ttlSeconds: number): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(namespace, id), JSON.stringify(data), 'EX', ttlSeconds);
    return id;
  }

  async consume<T>(namespace: string, id: string): Promise<T | undefined> {
    const raw = await this.redis.getdel(this.key(namespace, id));
    return raw ? (JSON.parse(raw) as T) : undefined;
  }

  async peek<T>(namespace: string, id: string): Promise<T | undefined> {
    const raw = await this.redis.get(this.key(namespace, id));
    return raw ? (JSON.parse(raw) as T) : undefined;
  }

  /** Replaces the value, keeping its expiry; does nothing once it is gone. */
  async update<T>(namespace: string, id: string, data: T): Promise<void> {
    await this.redis.set(this.key(namespace, id), JSON.stringify(data), 'KEEPTTL', 'XX');
  }
}
