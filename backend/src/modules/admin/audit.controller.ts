import { Controller, Get, Query } from '@nestjs/common';
import { AuditPageSchema, AuditQuerySchema } from '@life/contracts';
import type { z } from 'zod';
import { Contract } from '../../core/http/contract.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { QueryBus } from '@nestjs/cqrs';
import { AuditPageQuery } from '../audit/public/queries.js';

@Controller('api/admin/audit')
@Roles('admin')
export class AdminAuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Contract({
    summary: 'The audit log, newest first (admin changes and security events)',
    tags: ['admin'],
    access: 'admin',
    query: AuditQuerySchema,
    response: AuditPageSchema,
    operationId: 'AuditController_page',
  })
  page(@Query() query: z.infer<typeof AuditQuerySchema>) {
    return this.queries.execute(new AuditPageQuery(query));
  }
}
