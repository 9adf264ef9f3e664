import { Query } from '@nestjs/cqrs';

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
