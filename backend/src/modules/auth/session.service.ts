import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
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

/** Session tokens: 256 random bits, base64url; the database keeps only the SHA-256. */
@Injectable()
export class SessionService {
  constructor(
    private readonly em: EntityManager,
    private readonly queries: QueryBus,
  ) {}

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

  /** The live session of a bearer token and the person it belongs to (users answers who they are), or null. */
  async authenticatePerson(token: string): Promise<{ session: Session; person: PersonAccount } | null> {
    const session = await this.authenticate(token);
    if (!session) return null;
    const person = await this.queries.execute(new PersonAccountQuery(session.user.id));
    return person ? { session, person } : null;
  }

  async revoke(token: string): Promise<boolean> {
    const revoked = await this.em.nativeUpdate(Session, { tokenHash: hashToken(token), revokedAt: null }, { revokedAt: new Date() });
    return revoked > 0;
  }

  async revokeAllFor(userId: string): Promise<number> {
    return this.em.nativeUpdate(Session, { user: userId, revokedAt: null }, { revokedAt: new Date() });
  }
}
