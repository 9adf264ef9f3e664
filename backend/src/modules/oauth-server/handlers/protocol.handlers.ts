import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ConsentDecision, ConsentInfo, EndSessionInfo } from '@life/contracts';
import type { JWK } from 'jose';
import { AuthorizationService } from '../authorization.service.js';
import { LogoutService } from '../logout.service.js';
import { ProtocolService } from '../protocol.service.js';
import { DecideConsentCommand, IssueTokenCommand, RevokeTokenCommand } from '../public/commands.js';
import { ConsentInfoQuery, DiscoveryQuery, EndSessionInfoQuery, IntrospectTokenQuery, JwksQuery, UserInfoQuery } from '../public/queries.js';
import { SigningKeysService } from '../signing-keys.service.js';
import { TokenEndpointLimits } from '../token-endpoint-limits.service.js';
import { TokenEndpointService } from '../token-endpoint.service.js';

// The protocol endpoints of OAuthController: consent, token, revocation, introspection, userinfo, discovery.

@QueryHandler(ConsentInfoQuery)
export class ConsentInfoHandler implements IQueryHandler<ConsentInfoQuery> {
  constructor(private readonly authorization: AuthorizationService) {}
  execute({ request, language }: ConsentInfoQuery): Promise<ConsentInfo> {
    return this.authorization.describe(request, language);
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
  ) {}
  async execute({ call }: IssueTokenCommand): Promise<Record<string, unknown>> {
    this.tokens.checkRequest(call.body);
    const answer = await this.limits.guarded(call, () => this.tokens.handle({ headers: call.headers, body: call.body }));
    return answer.body;
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
  RevokeTokenHandler,
  IntrospectTokenHandler,
  UserInfoHandler,
  JwksHandler,
  DiscoveryHandler,
];
