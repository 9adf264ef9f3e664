import { Query } from '@nestjs/cqrs';

/** When a web session started (OIDC auth_time), or null for an unknown session. Answered by auth. */
export class SessionStartQuery extends Query<Date | null> {
  constructor(readonly sessionId: string) {
    super();
  }
}
