import type { IncomingHttpHeaders } from 'node:http';
import { Command, Query } from '@nestjs/cqrs';
import type {
  CONSENT_ACTIONS,
  ConsentDecision,
  CreateDeveloperApp,
  CreateOAuthClient,
  DeveloperApp,
  DeveloperAppWithSecret,
  OAuthClientStandingAction,
  OAuthClientView,
  OAuthClientWithSecret,
  UpdateDeveloperApp,
  UpdateOAuthClient,
} from '@life/contracts';
import type { ConsentingUser } from '../authorization.service.js';
import type { ProxyAnswer, ProxyRequest } from '../proxy.service.js';
import type { AccessTokenInfo } from '../token-store.service.js';

// Client applications (admin panel, CLI). A secret appears only in the answer that makes it.

export class ListOAuthClientsQuery extends Query<OAuthClientView[]> {}

export class CreateOAuthClientCommand extends Command<OAuthClientWithSecret> {
  constructor(
    readonly input: CreateOAuthClient,
    readonly ownerId: string | null,
  ) {
    super();
  }
}

export class UpdateOAuthClientCommand extends Command<OAuthClientView> {
  constructor(
    readonly id: string,
    readonly input: UpdateOAuthClient,
  ) {
    super();
  }
}

export class RotateOAuthClientSecretCommand extends Command<OAuthClientWithSecret> {
  constructor(readonly id: string) {
    super();
  }
}

export class DeleteOAuthClientCommand extends Command<void> {
  constructor(readonly id: string) {
    super();
  }
}

// The authorization server's own endpoints (consent, token, revocation, grants, the proxy).

/** A request to a token-side endpoint as HTTP received it: the caller's IP, its headers and the parsed form. */
export interface TokenEndpointCall {
  ip: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** The person allows or denies an authorization request: where the browser goes next. */
export class DecideConsentCommand extends Command<ConsentDecision> {
  constructor(
    /** The authorization request's parameters, as the consent page sent them back. */
    readonly request: unknown,
    readonly action: (typeof CONSENT_ACTIONS)[number],
    readonly user: ConsentingUser,
  ) {
    super();
  }
}

/** `POST /oauth/token` (every grant): the token answer's body. */
export class IssueTokenCommand extends Command<Record<string, unknown>> {
  constructor(readonly call: TokenEndpointCall) {
    super();
  }
}

/** RFC 9126 `POST /oauth/par`: the client pushes its authorization request and gets a request_uri for it. */
export class PushAuthorizationRequestCommand extends Command<{ request_uri: string; expires_in: number }> {
  constructor(readonly call: TokenEndpointCall) {
    super();
  }
}

/** RFC 7009 revocation by a client. */
export class RevokeTokenCommand extends Command<void> {
  constructor(readonly call: TokenEndpointCall) {
    super();
  }
}

/** The person revokes one app's grant ('Aplicaciones con acceso'). */
export class RevokeGrantCommand extends Command<void> {
  constructor(
    readonly userId: string,
    readonly grantId: string,
  ) {
    super();
  }
}

/** An app calls a connected service's API through the proxy with the person's token. */
export class ProxyRequestCommand extends Command<ProxyAnswer> {
  constructor(
    readonly token: AccessTokenInfo,
    readonly serviceName: string,
    readonly request: ProxyRequest,
  ) {
    super();
  }
}

// A person's own apps (profile: 'Mis aplicaciones', decision 0037). Every command names the owner.

export class CreateDeveloperAppCommand extends Command<DeveloperAppWithSecret> {
  constructor(
    readonly userId: string,
    readonly input: CreateDeveloperApp,
  ) {
    super();
  }
}

export class UpdateDeveloperAppCommand extends Command<DeveloperApp> {
  constructor(
    readonly userId: string,
    readonly id: string,
    readonly input: UpdateDeveloperApp,
  ) {
    super();
  }
}

export class RotateDeveloperAppSecretCommand extends Command<DeveloperAppWithSecret> {
  constructor(
    readonly userId: string,
    readonly id: string,
  ) {
    super();
  }
}

export class DeleteDeveloperAppCommand extends Command<DeveloperApp> {
  constructor(
    readonly userId: string,
    readonly id: string,
  ) {
    super();
  }
}

/** Admin: verify, unverify, suspend or lift the suspension of any app. */
export class SetOAuthClientStandingCommand extends Command<OAuthClientView> {
  constructor(
    readonly id: string,
    readonly action: OAuthClientStandingAction,
  ) {
    super();
  }
}
