// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import { ContactMessage } from './contact-message.entity.js';

export const CONTACT_ENTITIES = [ContactMessage];
