// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import { UserIdentity } from './user-identity.entity.js';
import { Session } from './session.entity.js';
import { LoginProvider } from './login-provider.entity.js';
import { BetaInvite } from './beta-invite.entity.js';

export const AUTH_ENTITIES = [UserIdentity, Session, LoginProvider, BetaInvite];
