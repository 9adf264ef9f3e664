import type { SealedTable } from '../../core/crypto/sealed-columns.js';

/**
 * oauth-server's sealed columns: the private half of each ID token signing key (SigningKeysService
 * binds it to the key's `kid`), and a spent refresh token's successor pair during the grace window
 * (TokenStoreService binds it to `successor_id`).
 */
export const OAUTH_SERVER_SEALED: SealedTable[] = [
  { table: 'oauth_signing_keys', aadColumn: 'kid', columns: [{ column: 'private_jwk_sealed', aad: 'private_jwk' }] },
  { table: 'oauth_tokens', aadColumn: 'successor_id', columns: [{ column: 'successor_sealed', aad: 'successor_pair' }] },
];
