import { Query } from '@nestjs/cqrs';

/** When a web session started (OIDC auth_time), or null for an unknown session. Answered by auth. */
export class SessionStartQuery extends Query<Date | null> {
  constructor(readonly sessionId: string) {
    super();
  }
}

/** Who holds this web session token, if it is live (optional sign-in on public pages). Answered by auth. */
export class SessionPersonQuery extends Query<{ userId: string; email: string; sessionId: string } | null> {
  constructor(readonly token: string) {
    super();
  }
}

/**
 * The identity providers a person signs in with (github, google…), from their linked identities.
 * Answered by auth; asked by external-services for the login-type catalog rows (githublogin).
 */
export class SignInProvidersQuery extends Query<string[]> {
  constructor(readonly userId: string) {
    super();
  }
}

/** The audit log's names for login providers it mentions by row id: id → provider name. */
export class LoginProviderNamesQuery extends Query<Record<string, string>> {
  constructor(readonly ids: readonly string[]) {
    super();
  }
}
