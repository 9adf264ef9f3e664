import { SetMetadata } from '@nestjs/common';
import type { AuditAction } from '@life/contracts';

export const AUDITED_KEY = 'life:audited';

export interface AuditedContext {
  params: Record<string, string>;
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

/** Records an audit event after this endpoint answers (what, by whom, from where; never secrets). */
export const Audited = (spec: AuditedSpec) => SetMetadata(AUDITED_KEY, spec);

/** The field names an admin change touched (values are left out: they may be secret). */
export const changedFields = ({ body }: AuditedContext) => ({ fields: Object.keys(body ?? {}).sort() });
