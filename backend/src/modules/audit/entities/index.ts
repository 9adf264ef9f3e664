// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import type { ColumnType } from 'kysely';
import { AuditEvent } from './audit-event.entity.js';

export const AUDIT_ENTITIES = [AuditEvent];

type Inferred = InferClassEntityDB<typeof AuditEvent>;

/**
 * This table for the typed query builder (`em.getKysely<AuditDb>()`), inferred from the entity;
 * only inside this module. The jsonb details are not inferred: read as an object, written as their JSON text.
 */
export type AuditDb = {
  audit_events: Omit<Inferred['audit_events'], 'details'> & { details: ColumnType<Record<string, unknown>, string, string> };
};
