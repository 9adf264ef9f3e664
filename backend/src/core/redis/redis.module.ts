import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';

export const REDIS = Symbol('REDIS');

/** One shared client for commands (health, locks, rate limits). BullMQ opens its own. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const client = new Redis(config.redisUrl, {
          maxRetriesPerRequest: 1,
          connectTimeout: 5000,
          commandTimeout: 3000,
          retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
        });
        // Errors surface through the commands that fail; keep the process alive.
        client.on('error', () => undefined);
        return client;
      },
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** QUIT (what was sent is answered first), but never more than 2 s: a client cut off from Redis just disconnects. */
  async onApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)));
    await Promise.race([this.redis.quit().catch(() => undefined), gaveUp]);
    clearTimeout(timer);
    this.redis.disconnect();
  }
}
