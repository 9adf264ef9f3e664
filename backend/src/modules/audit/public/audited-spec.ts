import type { AuditAction } from '@life/contracts';

export const AUDITED_KEY = 'life:audited';

export interface AuditedContext {
  params: Record<string, string>;
  /** The query string as the contract parsed it. */
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  result: unknown;
}

export interface AuditedSpec {
  /** Recorded when the handler succeeds. */
  action: AuditAction;
  /** Recorded instead when the handler throws (e.g. a refused sign-in). */
  onError?: AuditAction;
  target?: (context: AuditedContext) => { type: string; id?: string | null };
  /** The person to name when the request had no session yet (sign-in). */
  actor?: (context: AuditedContext) => { id?: string | null; label?: string | null } | undefined;
  details?: (context: AuditedContext & { error?: unknown }) => Record<string, unknown>;
}
