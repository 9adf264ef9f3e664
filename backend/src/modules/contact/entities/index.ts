// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import { ContactMessage } from './contact-message.entity.js';
import { ReconnectNotice } from './reconnect-notice.entity.js';

export const CONTACT_ENTITIES = [ContactMessage, ReconnectNotice];

/** This table for the typed query builder (`em.getKysely<ContactDb>()`), inferred from the entity; only inside this module. */
export type ContactDb = InferClassEntityDB<typeof ContactMessage | typeof ReconnectNotice>;
