import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CatalogService } from '../catalog.service.js';
import { ServiceAccessTokenQuery, ServiceApiBaseQuery, type UsableToken } from '../public/queries.js';
import { TokenAccess } from '../token-access.js';

@QueryHandler(ServiceApiBaseQuery)
export class ServiceApiBaseHandler implements IQueryHandler<ServiceApiBaseQuery> {
  constructor(private readonly catalog: CatalogService) {}

  async execute({ serviceName }: ServiceApiBaseQuery): Promise<string | null> {
    return (await this.catalog.apiTarget(serviceName)).baseUrl;
  }
}

@QueryHandler(ServiceAccessTokenQuery)
export class ServiceAccessTokenHandler implements IQueryHandler<ServiceAccessTokenQuery> {
  constructor(private readonly tokens: TokenAccess) {}

  execute({ userId, serviceName, rejectedAccessToken }: ServiceAccessTokenQuery): Promise<UsableToken> {
    return this.tokens.accessTokenFor(userId, serviceName, rejectedAccessToken);
  }
}
