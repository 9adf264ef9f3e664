// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import { DataExport } from './data-export.entity.js';

export const DATA_RIGHTS_ENTITIES = [DataExport];
