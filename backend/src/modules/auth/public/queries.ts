import { Query } from '@nestjs/cqrs';

/** When a web session started (OIDC auth_time), or null for an unknown session. Answered by auth. */
export class SessionStartQuery extends Query<Date | null> {
  constructor(readonly sessionId: string) {
    super();
  }
}

/** Who holds this web session token, if it is live (optional sign-in on public pages). Answered by auth. */
export class SessionPersonQuery extends Query<{ userId: string; email: string } | null> {
  constructor(readonly token: string) {
    super();
  }
}

/** The audit log's names for login providers it mentions by row id: id → provider name. */
export class LoginProviderNamesQuery extends Query<Record<string, string>> {
  constructor(readonly ids: readonly string[]) {
    super();
  }
}
