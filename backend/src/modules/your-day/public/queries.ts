import { Query } from '@nestjs/cqrs';
import type { Today } from '@life/contracts';

/**
 * Today's items of a person's connected services, as an app may see them: only the services in
 * `services` (the app's `service:<name>` scopes). `timeZone` is checked (400 when unknown); unset,
 * the person's last known zone. Answered by your-day (for oauth-server's `/api/v1/me/today`).
 */
export class PersonTodayQuery extends Query<Today> {
  constructor(
    readonly userId: string,
    readonly timeZone: string | undefined,
    readonly services: readonly string[],
    /** The app asking (its client row id): the rate limit is per app and person. */
    readonly clientId: string,
  ) {
    super();
  }
}
