import type { SealedTable } from './core/crypto/sealed-columns.js';
import { AUTH_SEALED } from './modules/auth/sealed-columns.js';
import { EXTERNAL_SERVICES_SEALED } from './modules/external-services/sealed-columns.js';

/**
 * Every column that holds a key-ring ciphertext, as each module declares its own; key rotation
 * (core/crypto/sealed-columns.ts) re-seals exactly these. A new sealed column goes into its
 * module's list, or a rotation leaves it under the old key.
 */
export const SEALED_TABLES: readonly SealedTable[] = [...EXTERNAL_SERVICES_SEALED, ...AUTH_SEALED];
