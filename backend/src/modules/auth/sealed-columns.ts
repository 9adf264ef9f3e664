import type { SealedTable } from '../../core/crypto/sealed-columns.js';

/** auth's sealed columns: a login provider's app secret (LoginProvidersService seals it). */
export const AUTH_SEALED: SealedTable[] = [{ table: 'login_providers', columns: [{ column: 'app_secret_encrypted', aad: 'app_secret' }] }];
