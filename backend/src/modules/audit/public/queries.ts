import { Query } from '@nestjs/cqrs';
import type { AuditPage } from '@life/contracts';

/** Admin: the audit log, newest first, by pages (`before` is the previous page's cursor). */
export class AuditPageQuery extends Query<AuditPage> {
  constructor(readonly query: { limit: number; before?: string; action?: string }) {
    super();
  }
}
