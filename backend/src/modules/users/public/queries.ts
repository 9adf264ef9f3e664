import { Query } from '@nestjs/cqrs';
import type { Role, UserProfile } from '@life/contracts';

/** What an ID token or an app may be told about a person (subject to scopes). */
export interface PersonProfile {
  username: string;
  email: string;
  emailVerified: boolean;
}

/** A person's profile for claims, or null when there is no such person. Answered by users. */
export class PersonProfileQuery extends Query<PersonProfile | null> {
  constructor(readonly userId: string) {
    super();
  }
}

/** Who an erasure is about, and whether they asked for it. */
export interface Person {
  id: string;
  email: string;
  username: string;
  erasureRequestedAt: Date | null;
}

export class PersonQuery extends Query<Person | null> {
  constructor(readonly userId: string) {
    super();
  }
}

/** Accounts whose erasure was asked for more than `olderThanMs` ago and that still exist (oldest first). */
export class PendingErasuresQuery extends Query<string[]> {
  constructor(
    readonly olderThanMs: number,
    readonly limit = 500,
  ) {
    super();
  }
}

/**
 * A person's account as sign-in sees it: plain data, never the entity (the rows other modules
 * write point at it by `id`).
 */
export interface PersonAccount {
  id: string;
  email: string;
  username: string;
  role: Role;
  emailVerified: boolean;
  erasureRequestedAt: Date | null;
}

/** The account with this id, or null. Answered by users. */
export class PersonAccountQuery extends Query<PersonAccount | null> {
  constructor(readonly userId: string) {
    super();
  }
}

/** The account with this e-mail (any case), or null. Answered by users. */
export class PersonByEmailQuery extends Query<PersonAccount | null> {
  constructor(readonly email: string) {
    super();
  }
}

/** Whether this e-mail is in ADMIN_EMAILS (any case): such a person needs no beta invitation. */
export class IsConfiguredAdminQuery extends Query<boolean> {
  constructor(readonly email: string) {
    super();
  }
}

/**
 * What the profile shows of a person already in hand (the signed-in session's, or an account a
 * command answered): no database read.
 */
export class ProfileQuery extends Query<UserProfile> {
  constructor(readonly person: { id: string; username: string; email: string; role: Role }) {
    super();
  }
}

/** The audit log's names for the people it mentions: id → username (absent when the account is gone). */
export class PersonNamesQuery extends Query<Record<string, string>> {
  constructor(readonly ids: readonly string[]) {
    super();
  }
}

/** The e-mails of these people (id → e-mail; absent when the account is gone). Billing's sales view asks. */
export class PersonEmailsQuery extends Query<Record<string, string>> {
  constructor(readonly ids: readonly string[]) {
    super();
  }
}

/**
 * The ids of the people whose e-mail contains `search` (any case), at most `limit` of them,
 * for the sales view's search. Answered by users, so no other module reads the users table.
 */
export class PeopleMatchingEmailQuery extends Query<string[]> {
  constructor(
    readonly search: string,
    readonly limit: number,
  ) {
    super();
  }
}
