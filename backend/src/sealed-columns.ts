import type { SealedTable } from './core/crypto/sealed-columns.js';
import { AUTH_SEALED } from './modules/auth/sealed-columns.js';
import { EXTERNAL_SERVICES_SEALED } from './modules/external-services/sealed-columns.js';
import { OAUTH_SERVER_SEALED } from './modules/oauth-server/sealed-columns.js';
import { YOUR_DAY_SEALED } from './modules/your-day/sealed-columns.js';

/**
 * Every column that holds a key-ring ciphertext, as each module declares its own; key rotation
 * (core/crypto/sealed-columns.ts) re-seals exactly these. A new sealed column goes into its
 * module's list: backend/test/connections-keys.test.ts fails on any entity column named
 * `*_encrypted`/`*_sealed`, and on any column holding a ciphertext after every feature ran, that no
 * list names (decision 0038).
 */
export const SEALED_TABLES: readonly SealedTable[] = [...EXTERNAL_SERVICES_SEALED, ...AUTH_SEALED, ...OAUTH_SERVER_SEALED, ...YOUR_DAY_SEALED];
