// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import { User } from './user.entity.js';

export const USERS_ENTITIES = [User];
