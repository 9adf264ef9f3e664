import type { SealedTable } from '../../core/crypto/sealed-columns.js';

/** external-services' sealed columns (TokenVault): admin app secrets and API keys, own credentials, connection tokens. */
export const EXTERNAL_SERVICES_SEALED: SealedTable[] = [
  {
    table: 'external_services',
    columns: [
      { column: 'app_secret_encrypted', aad: 'app_secret' },
      { column: 'api_key_encrypted', aad: 'api_key' },
    ],
  },
  { table: 'user_service_credentials', columns: [{ column: 'client_secret_encrypted', aad: 'client_secret' }] },
  {
    table: 'service_connections',
    columns: [
      { column: 'access_token_encrypted', aad: 'access_token' },
      { column: 'refresh_token_encrypted', aad: 'refresh_token' },
      { column: 'link_key_encrypted', aad: 'link_key' },
    ],
    // A refresh rewrites these columns: re-seal a row only while holding its refresh lock.
    lockedByRefresh: true,
  },
];
