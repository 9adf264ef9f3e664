import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { AuditInterceptor } from '../audit.interceptor.js';
import { AUDITED_KEY, type AuditedContext, type AuditedSpec } from './audited-spec.js';

export { AUDITED_KEY, type AuditedContext, type AuditedSpec } from './audited-spec.js';

/** Records an audit event after this endpoint answers (what, by whom, from where; never secrets). */
export const Audited = (spec: AuditedSpec) => applyDecorators(SetMetadata(AUDITED_KEY, spec), UseInterceptors(AuditInterceptor));

/** The field names an admin change touched (values are left out: they may be secret). */
export const changedFields = ({ body }: AuditedContext) => ({ fields: Object.keys(body ?? {}).sort() });
