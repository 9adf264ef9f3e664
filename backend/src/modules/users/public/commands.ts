import { Command } from '@nestjs/cqrs';

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
