// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import { DayPerson } from './day-person.entity.js';
import { DayViewRow } from './day-view.entity.js';

export const YOUR_DAY_ENTITIES = [DayViewRow, DayPerson];

/** This module's tables for the typed query builder (`em.getKysely<YourDayDb>()`); only inside this module. */
export type YourDayDb = InferClassEntityDB<typeof DayViewRow | typeof DayPerson>;
