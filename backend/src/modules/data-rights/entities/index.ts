// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import { DataExport } from './data-export.entity.js';

export const DATA_RIGHTS_ENTITIES = [DataExport];

/** This table for the typed query builder (`em.getKysely<DataRightsDb>()`), inferred from the entity; only inside this module. */
export type DataRightsDb = InferClassEntityDB<typeof DataExport>;
