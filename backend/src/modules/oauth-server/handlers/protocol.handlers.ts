import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { AuthorizeAnswer, ConsentDecision, EndSessionInfo } from '@life/contracts';
import type { JWK } from 'jose';
import { AuthorizationErrorRedirect, AuthorizationService, PUSHABLE_PARAMS } from '../authorization.service.js';
import { LogoutService } from '../logout.service.js';
import { ProtocolService } from '../protocol.service.js';
import { OAuthProtocolError } from '../oauth.errors.js';
import { readParams } from '../params.js';
import { PAR_LIFETIME_SECONDS, PushedRequests } from '../pushed-requests.js';
import { DPoPVerifier } from '../dpop.js';
import { msg } from '../../../core/i18n/messages.js';
import { DecideConsentCommand, IssueTokenCommand, PushAuthorizationRequestCommand, RevokeTokenCommand } from '../public/commands.js';
import { ConsentInfoQuery, DiscoveryQuery, EndSessionInfoQuery, IntrospectTokenQuery, JwksQuery, UserInfoQuery } from '../public/queries.js';
import { SigningKeysService } from '../signing-keys.service.js';
import { TokenEndpointLimits } from '../token-endpoint-limits.service.js';
import { TokenEndpointService } from '../token-endpoint.service.js';

// The protocol endpoints of OAuthController: consent, token, revocation, introspection, userinfo, discovery.

@QueryHandler(ConsentInfoQuery)
export class ConsentInfoHandler implements IQueryHandler<ConsentInfoQuery> {
  constructor(private readonly authorization: AuthorizationService) {}
  execute({ request, language, sessionToken }: ConsentInfoQuery): Promise<AuthorizeAnswer> {
    return this.authorization.describe(request, language, sessionToken);
  }
}

@QueryHandler(EndSessionInfoQuery)
export class EndSessionInfoHandler implements IQueryHandler<EndSessionInfoQuery> {
  constructor(private readonly logout: LogoutService) {}
  execute({ request }: EndSessionInfoQuery): Promise<EndSessionInfo> {
    return this.logout.describe(request);
  }
}

@CommandHandler(DecideConsentCommand)
export class DecideConsentHandler implements ICommandHandler<DecideConsentCommand> {
  constructor(private readonly authorization: AuthorizationService) {}
  execute({ request, action, user }: DecideConsentCommand): Promise<ConsentDecision> {
    return this.authorization.decide(request, action, user);
  }
}

/** The token endpoint's hot path: the parameters checked, then the library's handler inside the rate limits. */
@CommandHandler(IssueTokenCommand)
export class IssueTokenHandler implements ICommandHandler<IssueTokenCommand> {
  constructor(
    private readonly tokens: TokenEndpointService,
    private readonly limits: TokenEndpointLimits,
    private readonly dpop: DPoPVerifier,
  ) {}
  async execute({ call }: IssueTokenCommand): Promise<Record<string, unknown>> {
    this.tokens.checkRequest(call.body, call.headers.authorization);
    const answer = await this.limits.guarded(call, async () => {
      // RFC 9449: a proof binds the tokens to its key; no header, no crypto (the Bearer path stays as it was).
      const dpopJkt =
        call.headers.dpop === undefined
          ? undefined
          : await this.dpop.verify(call.headers.dpop, { method: 'POST', url: this.dpop.endpointUrl('/oauth/token') }, 'token');
      return this.tokens.handle({ headers: call.headers, body: call.body, dpopJkt });
    });
    return answer.body;
  }
}

/**
 * RFC 9126: the client authenticates as at the token endpoint (inside the same rate limits), the
 * request passes every check of the authorization endpoint, and is kept for a minute.
 */
@CommandHandler(PushAuthorizationRequestCommand)
export class PushAuthorizationRequestHandler implements ICommandHandler<PushAuthorizationRequestCommand> {
  constructor(
    private readonly protocol: ProtocolService,
    private readonly authorization: AuthorizationService,
    private readonly pushed: PushedRequests,
    private readonly limits: TokenEndpointLimits,
    private readonly dpop: DPoPVerifier,
  ) {}

  execute({ call }: PushAuthorizationRequestCommand): Promise<{ request_uri: string; expires_in: number }> {
    return this.limits.guarded(call, async () => {
      const authorization = call.headers.authorization;
      // One client authentication method, as at the token endpoint (a body client_id equal to Basic's is allowed: openid-client sends both).
      const credentials = readParams(call.body, ['client_id', 'client_secret']);
      const client = await this.protocol.authenticateClient(authorization, credentials, { allowPublic: true });
      // Only what an authorization request may carry is kept (each bounded by readParams): the
      // store holds no junk, whatever else the body brings.
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(readParams(call.body, PUSHABLE_PARAMS))) if (value !== undefined) params[name] = value;
      params.client_id = client.clientId;
      // RFC 9449 §10.1: a DPoP proof at the PAR endpoint binds the code to its key (as dpop_jkt would).
      if (call.headers.dpop !== undefined) {
        const jkt = await this.dpop.verify(call.headers.dpop, { method: 'POST', url: this.dpop.endpointUrl('/oauth/par') }, 'token');
        if (params.dpop_jkt && params.dpop_jkt !== jkt) throw new OAuthProtocolError('invalid_dpop_proof', msg('oauth.dpopKeyMismatch'));
        params.dpop_jkt = jkt;
      }
      try {
        await this.authorization.check(params, { pushing: true });
      } catch (error) {
        // An error the authorization endpoint would send back to the app is the PAR answer itself here (RFC 9126 §2.3).
        if (!(error instanceof AuthorizationErrorRedirect)) throw error;
        throw new OAuthProtocolError(error.code, error.reason);
      }
      return { request_uri: await this.pushed.push(client.clientId, params), expires_in: PAR_LIFETIME_SECONDS };
    });
  }
}

@CommandHandler(RevokeTokenCommand)
export class RevokeTokenHandler implements ICommandHandler<RevokeTokenCommand> {
  constructor(
    private readonly protocol: ProtocolService,
    private readonly limits: TokenEndpointLimits,
  ) {}
  execute({ call }: RevokeTokenCommand): Promise<void> {
    return this.limits.guarded(call, () => this.protocol.revoke(call.headers.authorization, call.body));
  }
}

@QueryHandler(IntrospectTokenQuery)
export class IntrospectTokenHandler implements IQueryHandler<IntrospectTokenQuery> {
  constructor(
    private readonly protocol: ProtocolService,
    private readonly limits: TokenEndpointLimits,
  ) {}
  execute({ call }: IntrospectTokenQuery): Promise<Record<string, unknown>> {
    return this.limits.guarded(call, () => this.protocol.introspect(call.headers.authorization, call.body));
  }
}

@QueryHandler(UserInfoQuery)
export class UserInfoHandler implements IQueryHandler<UserInfoQuery> {
  constructor(private readonly protocol: ProtocolService) {}
  async execute({ token }: UserInfoQuery): Promise<Record<string, unknown>> {
    return this.protocol.userinfo(token);
  }
}

@QueryHandler(JwksQuery)
export class JwksHandler implements IQueryHandler<JwksQuery> {
  constructor(private readonly keys: SigningKeysService) {}
  execute(): Promise<{ keys: JWK[] }> {
    return this.keys.jwks();
  }
}

@QueryHandler(DiscoveryQuery)
export class DiscoveryHandler implements IQueryHandler<DiscoveryQuery> {
  constructor(private readonly protocol: ProtocolService) {}
  async execute({ openid }: DiscoveryQuery): Promise<Record<string, unknown>> {
    return this.protocol.metadata(openid);
  }
}

export const OAUTH_PROTOCOL_HANDLERS = [
  ConsentInfoHandler,
  DecideConsentHandler,
  EndSessionInfoHandler,
  IssueTokenHandler,
  PushAuthorizationRequestHandler,
  RevokeTokenHandler,
  IntrospectTokenHandler,
  UserInfoHandler,
  JwksHandler,
  DiscoveryHandler,
];
