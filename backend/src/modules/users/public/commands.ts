import { Command } from '@nestjs/cqrs';
import type { UserProfile } from '@life/contracts';
import type { PersonAccount } from './queries.js';

/**
 * Marks the account for erasure once (a second request keeps the first time) and returns that
 * time, or null when there is no such account. Joins the caller's transaction.
 */
export class MarkErasureRequestedCommand extends Command<Date | null> {
  constructor(readonly userId: string) {
    super();
  }
}

/**
 * Deletes the account row, the last step of an erasure. The database cascades to the rows other
 * modules keep about the person (their foreign keys), after each module erased its own part.
 */
export class DeletePersonCommand extends Command<boolean> {
  constructor(readonly userId: string) {
    super();
  }
}

/**
 * A new account for a verified e-mail: a free username from the hint (or the e-mail), the admin
 * role when the e-mail is in ADMIN_EMAILS. Sign-in (auth) creates people through it.
 */
export class CreatePersonCommand extends Command<PersonAccount> {
  constructor(readonly input: { email: string; emailVerified: boolean; usernameHint?: string }) {
    super();
  }
}

/**
 * ADMIN_EMAILS promote at every sign-in (removal from the list is done with the CLI or the
 * database): the account afterwards. Fails with user_not_found for an unknown id.
 */
export class ApplyConfiguredRoleCommand extends Command<PersonAccount> {
  constructor(readonly userId: string) {
    super();
  }
}

/** Changes the person's username (3 to 32 characters, unique whatever its case): the profile afterwards. */
export class UpdateUsernameCommand extends Command<UserProfile> {
  constructor(
    readonly userId: string,
    readonly username: string,
  ) {
    super();
  }
}
