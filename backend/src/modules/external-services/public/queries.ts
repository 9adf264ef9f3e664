import { Query } from '@nestjs/cqrs';
import type { RefreshFailure } from '@life/contracts';

/** One of a person's connections, as other modules may see it (never a token). */
export interface PersonConnection {
  service_name: string;
  status: string;
  connected_at: Date | null;
}

/** The person's connections, by service name. Answered by external-services. */
export class PersonConnectionsQuery extends Query<PersonConnection[]> {
  constructor(readonly userId: string) {
    super();
  }
}

/** Services whose token refresh is failing or gave up, most recent failure first (Salud). */
export class RefreshFailuresQuery extends Query<RefreshFailure[]> {
  constructor(readonly limit = 50) {
    super();
  }
}
