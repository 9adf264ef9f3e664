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
