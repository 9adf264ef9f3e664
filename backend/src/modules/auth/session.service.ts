import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../../core/redis/redis.module.js';
import { QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { PersonAccountQuery, type PersonAccount } from '../users/public/queries.js';
import { Session } from './entities/session.entity.js';

/** Idle lifetime: each use within it extends the session. */
export const SESSION_IDLE_MS = 14 * 24 * 3600 * 1000;
/** Hard cap from sign-in, however active the session is. */
export const SESSION_ABSOLUTE_MS = 90 * 24 * 3600 * 1000;
/** Write the sliding expiry at most this often, not on every request. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * How long this process trusts what it read about a session without reading it again. A logout,
 * a revocation, an erasure request or a change of username or role clears the entry at once in
 * the process that made it and, through Redis pub/sub, in every other process a moment later;
 * anything else (a row edited by hand, Redis unreachable) is seen within this time. Bounded by the
 * session's own expiry.
 */
export const SESSION_CACHE_MS = 1000;
/** At most this many sessions remembered per process (the oldest go first). */
const SESSION_CACHE_MAX = 10_000;

/** A live session as the request pipeline needs it: plain data, safe to share between requests. */
export interface LiveSession {
  sessionId: string;
  person: PersonAccount;
}

interface CachedSession extends LiveSession {
  until: number;
}

/**
 * The process's memory of recent sessions. Per process, not per SessionService: passport keeps
 * one strategy per name for the whole process, so where a process holds several applications
 * (the tests do) any of their SessionServices may answer a request, and a forget must reach them all.
 */
const remembered = { sessions: new Map<string, CachedSession>(), generation: 0 };

/** Session tokens: 256 random bits, base64url; the database keeps only the SHA-256. */
@Injectable()
export class SessionService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SessionService.name);
  private readonly recent = remembered.sessions;
  private subscriber: Redis | undefined;
  private readonly channel: string;

  constructor(
    private readonly em: EntityManager,
    private readonly queries: QueryBus,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.channel = `${config.queuePrefix}:sessions:forget`;
  }

  async onModuleInit(): Promise<void> {
    const subscriber = this.redis.duplicate({ lazyConnect: true, commandTimeout: undefined });
    subscriber.on('error', () => undefined);
    // A (re)connection may have missed messages: forget everything.
    subscriber.on('ready', () => this.forgetAll());
    subscriber.on('message', (_channel: string, message: string) => this.forgetLocally(message));
    this.subscriber = subscriber;
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.channel);
    } catch (error) {
      this.logger.warn({ err: error }, 'No Redis subscription for session changes: other processes are seen within the cache time');
    }
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  /** A new session for the person with this id: its bearer token. */
  async create(userId: string, meta: { ip?: string; userAgent?: string }): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    this.em.create(Session, {
      tokenHash: hashToken(token),
      user: userId,
      expiresAt: new Date(Math.min(now + SESSION_IDLE_MS, now + SESSION_ABSOLUTE_MS)),
      ip: meta.ip?.slice(0, 64) ?? null,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    });
    await this.em.flush();
    return token;
  }

  /** The live session of a bearer token, sliding its expiry; null when unknown, revoked or expired. */
  async authenticate(token: string): Promise<Session | null> {
    if (token.length < 20 || token.length > 200) return null;
    const session = await this.em.findOne(Session, { tokenHash: hashToken(token) });
    if (!session || session.revokedAt) return null;
    const now = Date.now();
    if (session.expiresAt.getTime() <= now) return null;
    if (now - session.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
      session.lastUsedAt = new Date(now);
      session.expiresAt = new Date(Math.min(now + SESSION_IDLE_MS, session.createdAt.getTime() + SESSION_ABSOLUTE_MS));
      await this.em.flush();
    }
    return session;
  }

  /**
   * The live session of a bearer token and the person it belongs to (users answers who they
   * are), or null. Remembered for SESSION_CACHE_MS: a page's burst of API calls reads the
   * database once.
   */
  async authenticatePerson(token: string): Promise<LiveSession | null> {
    if (token.length < 20 || token.length > 200) return null;
    const key = hashToken(token);
    const now = Date.now();
    const cached = this.recent.get(key);
    if (cached && cached.until > now) return { sessionId: cached.sessionId, person: cached.person };
    if (cached) this.recent.delete(key);
    const generation = remembered.generation;
    const session = await this.authenticate(token);
    if (!session) return null;
    const person = await this.queries.execute(new PersonAccountQuery(session.user.id));
    if (!person) return null;
    if (generation === remembered.generation) {
      if (this.recent.size >= SESSION_CACHE_MAX) this.recent.delete(this.recent.keys().next().value!);
      this.recent.set(key, { sessionId: session.id, person, until: Math.min(now + SESSION_CACHE_MS, session.expiresAt.getTime()) });
    }
    return { sessionId: session.id, person };
  }

  async revoke(token: string): Promise<boolean> {
    const key = hashToken(token);
    const revoked = await this.em.nativeUpdate(Session, { tokenHash: key, revokedAt: null }, { revokedAt: new Date() });
    await this.forget(`token:${key}`);
    return revoked > 0;
  }

  async revokeAllFor(userId: string): Promise<number> {
    const revoked = await this.em.nativeUpdate(Session, { user: userId, revokedAt: null }, { revokedAt: new Date() });
    await this.forgetPerson(userId);
    return revoked;
  }

  /** Forgets a person's sessions here and in every other process (their sessions, role or name changed). */
  forgetPerson(userId: string): Promise<void> {
    return this.forget(`person:${userId}`);
  }

  private async forget(message: string): Promise<void> {
    this.forgetLocally(message);
    await this.redis.publish(this.channel, message).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'Could not publish a session change: other processes see it within the cache time');
    });
  }

  private forgetLocally(message: string): void {
    // Bumped by every forget: a read that started before one must not fill the cache.
    remembered.generation++;
    if (message.startsWith('token:')) this.recent.delete(message.slice('token:'.length));
    else if (message.startsWith('person:')) {
      const userId = message.slice('person:'.length);
      for (const [key, entry] of this.recent) if (entry.person.id === userId) this.recent.delete(key);
    }
  }

  private forgetAll(): void {
    remembered.generation++;
    this.recent.clear();
  }
}
