import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { AppGrant, AppMeSchema, AppServicesSchema } from '@life/contracts';
import type { z } from 'zod';
import { AppResourcesService } from '../app-resources.service.js';
import { AuthorizationService } from '../authorization.service.js';
import { ProxyService, type ProxyAnswer } from '../proxy.service.js';
import { ProxyRequestCommand, RevokeGrantCommand } from '../public/commands.js';
import { AppGrantsQuery, AppMeQuery, AppServicesQuery } from '../public/queries.js';

// The person's app grants (GrantsController) and the resource API for apps (AppApiController).

@QueryHandler(AppGrantsQuery)
export class AppGrantsHandler implements IQueryHandler<AppGrantsQuery> {
  constructor(private readonly authorization: AuthorizationService) {}
  execute({ userId, language }: AppGrantsQuery): Promise<AppGrant[]> {
    return this.authorization.grantsOf(userId, language);
  }
}

@CommandHandler(RevokeGrantCommand)
export class RevokeGrantHandler implements ICommandHandler<RevokeGrantCommand> {
  constructor(private readonly authorization: AuthorizationService) {}
  execute({ userId, grantId }: RevokeGrantCommand): Promise<void> {
    return this.authorization.revokeGrantByOwner(userId, grantId);
  }
}

@QueryHandler(AppMeQuery)
export class AppMeHandler implements IQueryHandler<AppMeQuery> {
  constructor(private readonly resources: AppResourcesService) {}
  async execute({ token }: AppMeQuery): Promise<z.infer<typeof AppMeSchema>> {
    return this.resources.me(token);
  }
}

@QueryHandler(AppServicesQuery)
export class AppServicesHandler implements IQueryHandler<AppServicesQuery> {
  constructor(private readonly resources: AppResourcesService) {}
  execute({ token }: AppServicesQuery): Promise<z.infer<typeof AppServicesSchema>> {
    return this.resources.services(token);
  }
}

@CommandHandler(ProxyRequestCommand)
export class ProxyRequestHandler implements ICommandHandler<ProxyRequestCommand> {
  constructor(private readonly proxy: ProxyService) {}
  execute({ token, serviceName, request }: ProxyRequestCommand): Promise<ProxyAnswer> {
    return this.proxy.forward(token, serviceName, request);
  }
}

export const OAUTH_APPS_HANDLERS = [AppGrantsHandler, RevokeGrantHandler, AppMeHandler, AppServicesHandler, ProxyRequestHandler];
