// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import { UserIdentity } from './user-identity.entity.js';
import { Session } from './session.entity.js';
import { LoginProvider } from './login-provider.entity.js';
import { BetaInvite } from './beta-invite.entity.js';

export const AUTH_ENTITIES = [UserIdentity, Session, LoginProvider, BetaInvite];

/** These tables for the typed query builder (`em.getKysely<AuthDb>()`), inferred from the entities; only inside this module. */
export type AuthDb = InferClassEntityDB<typeof UserIdentity | typeof Session | typeof LoginProvider | typeof BetaInvite>;
