// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import { User } from './user.entity.js';

export const USERS_ENTITIES = [User];

/** This table for the typed query builder (`em.getKysely<UsersDb>()`), inferred from the entity; only inside this module. */
export type UsersDb = InferClassEntityDB<typeof User>;
