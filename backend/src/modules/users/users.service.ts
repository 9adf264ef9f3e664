import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { isHighlyRestrictive, USERNAME_MAX, USERNAME_MIN, type UserProfile } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import type { UsersDb } from './entities/index.js';
import { User } from './entities/user.entity.js';
import type { PersonAccount } from './public/queries.js';
import { UsersError, UsersErrorCode } from './users.errors.js';
import { msg } from '../../core/i18n/messages.js';

export function toProfile(user: Pick<User, 'id' | 'username' | 'email' | 'role'>): UserProfile {
  return { id: user.id, username: user.username, email: user.email, role: user.role };
}

/** The account as plain data, for other modules (never the entity). */
export function toAccount(user: User): PersonAccount {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    role: user.role,
    emailVerified: user.emailVerified,
    erasureRequestedAt: user.erasureRequestedAt ?? null,
  };
}

/**
 * Turns a provider's login or name into a valid username candidate: the name, else the e-mail's
 * local part, else 'usuario', the first that is not a mix of scripts (isHighlyRestrictive).
 */
export function usernameCandidate(raw: string | undefined, email: string): string {
  const clean = (value: string) =>
    value
      .normalize('NFKC')
      .replace(/[^\p{L}\p{N}_.-]+/gu, '')
      .slice(0, USERNAME_MAX);
  const base = [raw, email.split('@')[0]].map((value) => clean(value ?? '')).find((value) => value && isHighlyRestrictive(value)) ?? 'usuario';
  return base.length >= USERNAME_MIN ? base : `${base}${'user'.slice(0, USERNAME_MIN - base.length + 1)}`.slice(0, USERNAME_MAX);
}

@Injectable()
export class UsersService {
  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  findById(id: string): Promise<User | null> {
    return this.em.findOne(User, { id });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.em.findOne(User, { email: email.toLowerCase() });
  }

  isConfiguredAdmin(email: string): boolean {
    return this.config.adminEmails.includes(email.toLowerCase());
  }

  /** Whether someone (other than `exceptUserId`) has this username, whatever its case. */
  private async usernameTaken(username: string, exceptUserId?: string): Promise<boolean> {
    let query = this.em
      .getKysely<UsersDb>()
      .selectFrom('users')
      .select((eb) => eb.lit(1).as('n'))
      .where((eb) => eb(eb.fn('lower', ['username']), '=', eb.fn('lower', [eb.val(username)])));
    if (exceptUserId !== undefined) query = query.where('id', '<>', exceptUserId);
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }

  /** A username no one has (case-insensitively): the candidate, else candidate + a number. */
  private async freeUsername(candidate: string): Promise<string> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const suffix = attempt === 0 ? '' : String(attempt + 1);
      const name = `${candidate.slice(0, USERNAME_MAX - suffix.length)}${suffix}`;
      if (!(await this.usernameTaken(name))) return name;
    }
    return `${candidate.slice(0, USERNAME_MAX - 9)}${Date.now().toString(36).slice(-8)}`;
  }

  async create(input: { email: string; emailVerified: boolean; usernameHint?: string }): Promise<User> {
    const email = input.email.toLowerCase();
    const user = this.em.create(User, {
      email,
      emailVerified: input.emailVerified,
      username: await this.freeUsername(usernameCandidate(input.usernameHint, email)),
      role: this.isConfiguredAdmin(email) ? 'admin' : 'user',
    });
    await this.em.persist(user).flush();
    return user;
  }

  /** ADMIN_EMAILS promote at every sign-in; removal from the list is done with the CLI or database. */
  async applyConfiguredRole(user: User): Promise<void> {
    if (user.role !== 'admin' && this.isConfiguredAdmin(user.email)) {
      user.role = 'admin';
      await this.em.flush();
    }
  }

  /** applyConfiguredRole for an account known by its id (user_not_found when there is none). */
  async applyConfiguredRoleOf(userId: string): Promise<User> {
    const user = await this.findById(userId);
    if (!user) throw new UsersError(UsersErrorCode.UserNotFound, msg('users.notFound'));
    await this.applyConfiguredRole(user);
    return user;
  }

  async updateUsername(userId: string, username: string): Promise<UserProfile> {
    const user = await this.findById(userId);
    if (!user) throw new UsersError(UsersErrorCode.UserNotFound, msg('users.notFound'));
    if (user.username === username) return toProfile(user);
    if (await this.usernameTaken(username, userId)) throw new UsersError(UsersErrorCode.UsernameTaken, msg('users.usernameTaken'));
    user.username = username;
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new UsersError(UsersErrorCode.UsernameTaken, msg('users.usernameTaken'));
      throw error;
    }
    return toProfile(user);
  }

  async makeAdmin(email: string): Promise<User | null> {
    const user = await this.findByEmail(email);
    if (!user) return null;
    user.role = 'admin';
    await this.em.flush();
    return user;
  }
}
