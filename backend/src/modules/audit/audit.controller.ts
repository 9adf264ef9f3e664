import { Controller, Get, Query } from '@nestjs/common';
import { AuditPageSchema, AuditQuerySchema } from '@life/contracts';
import type { z } from 'zod';
import { Contract } from '../../core/http/contract.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { AuditService } from './audit.service.js';

@Controller('api/admin/audit')
@Roles('admin')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Contract({
    summary: 'The audit log, newest first (admin changes and security events)',
    tags: ['admin'],
    access: 'admin',
    query: AuditQuerySchema,
    response: AuditPageSchema,
  })
  page(@Query() query: z.infer<typeof AuditQuerySchema>) {
    return this.audit.page(query);
  }
}
