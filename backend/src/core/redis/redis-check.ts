import { Redis } from 'ioredis';

export class RedisUnavailableError extends Error {}

/** Redacts the password of a redis:// URL before it is printed. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * Fails fast, with instructions, when no Redis answers: BullMQ would otherwise
 * retry forever and the app would hang at boot.
 */
export async function assertRedisReachable(url: string, timeoutMs = 3000): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RedisUnavailableError(
      [
        `Life could not reach Redis at ${redactUrl(url)} (${reason}).`,
        'Life needs Redis for its background queues. Start one, for example:',
        '  redis-server --daemonize yes --port 6379 --save "" --appendonly no',
        '  (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis; Docker: docker run -d -p 6379:6379 redis:7)',
        'or point REDIS_URL at a reachable server, then run the command again.',
      ].join('\n'),
    );
  } finally {
    client.disconnect();
  }
}
