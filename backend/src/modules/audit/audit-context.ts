import { AsyncLocalStorage } from 'node:async_hooks';

/** Where the current request comes from, for audit records written deep inside services. */
export interface AuditRequestContext {
  ip?: string;
  userAgent?: string;
  actorId?: string;
  actorLabel?: string;
}

export const auditContext = new AsyncLocalStorage<AuditRequestContext>();
