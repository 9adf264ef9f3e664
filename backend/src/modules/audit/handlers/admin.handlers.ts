import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { AuditPage } from '@life/contracts';
import { AuditService } from '../audit.service.js';
import { AuditPageQuery } from '../public/queries.js';

@QueryHandler(AuditPageQuery)
export class AuditPageHandler implements IQueryHandler<AuditPageQuery> {
  constructor(private readonly audit: AuditService) {}
  execute({ query }: AuditPageQuery): Promise<AuditPage> {
    return this.audit.page(query);
  }
}
