import { Query } from '@nestjs/cqrs';
import type { AppGrant, AppMeSchema, AppServicesSchema, AuthorizeAnswer, DeveloperAppList, EndSessionInfo, Language } from '@life/contracts';
import type { JWK } from 'jose';
import type { z } from 'zod';
import type { AccessTokenInfo } from '../token-store.service.js';
import type { TokenEndpointCall } from './commands.js';

// Reads of the authorization server's own endpoints (consent page, introspection, userinfo,
// discovery, the person's grants, the resource API).

/**
 * What the consent screen shows for an authorization request (checked as a whole first), or
 * where the browser goes without a question: the server decides remembered consent, prompt and
 * max_age with the page's session token, when it sent one.
 */
export class ConsentInfoQuery extends Query<AuthorizeAnswer> {
  constructor(
    readonly request: unknown,
    readonly language: Language,
    readonly sessionToken?: string,
  ) {
    super();
  }
}

/** What the sign-out page needs for an RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0), checked first. */
export class EndSessionInfoQuery extends Query<EndSessionInfo> {
  constructor(readonly request: unknown) {
    super();
  }
}

/** RFC 7662 introspection by a confidential client about its own token. */
export class IntrospectTokenQuery extends Query<Record<string, unknown>> {
  constructor(readonly call: TokenEndpointCall) {
    super();
  }
}

/** OpenID Connect userinfo for an app's access token. */
export class UserInfoQuery extends Query<Record<string, unknown>> {
  constructor(readonly token: AccessTokenInfo) {
    super();
  }
}

/** The public keys that sign ID tokens (JWKS). */
export class JwksQuery extends Query<{ keys: JWK[] }> {}

/** RFC 8414 metadata, or with `openid` the OpenID Connect discovery document. */
export class DiscoveryQuery extends Query<Record<string, unknown>> {
  constructor(readonly openid: boolean) {
    super();
  }
}

/** Apps holding a live grant from this person, newest first. */
export class AppGrantsQuery extends Query<AppGrant[]> {
  constructor(
    readonly userId: string,
    readonly language: Language,
  ) {
    super();
  }
}

/** `/api/v1/me`: who the person is, as far as the app token's scopes allow. */
export class AppMeQuery extends Query<z.infer<typeof AppMeSchema>> {
  constructor(readonly token: AccessTokenInfo) {
    super();
  }
}

/** `/api/v1/services`: the person's connected services, as far as the app token's scopes allow. */
export class AppServicesQuery extends Query<z.infer<typeof AppServicesSchema>> {
  constructor(readonly token: AccessTokenInfo) {
    super();
  }
}

/**
 * The audit log's names for what it mentions of client apps: each id (an app's row id or its
 * client_id, a grant, a code, a token family) → the app's name.
 */
export interface AppNames {
  clients: Record<string, string>;
  grants: Record<string, string>;
  codes: Record<string, string>;
  families: Record<string, string>;
}

export class AppNamesQuery extends Query<AppNames> {
  constructor(readonly ids: { clients: readonly string[]; grants: readonly string[]; codes: readonly string[]; families: readonly string[] }) {
    super();
  }
}

/** The apps this person registered on their profile, with how many they may have. */
export class DeveloperAppsQuery extends Query<DeveloperAppList> {
  constructor(readonly userId: string) {
    super();
  }
}
