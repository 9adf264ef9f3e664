// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import { AuditEvent } from './audit-event.entity.js';

export const AUDIT_ENTITIES = [AuditEvent];
