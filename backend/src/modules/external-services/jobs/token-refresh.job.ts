/** Queue of connections whose access token should be refreshed now (the row is the source of truth). */
export const TOKEN_REFRESH_QUEUE = 'token-refresh';
export const REFRESH_CONNECTION = 'refresh';

export interface TokenRefreshJob {
  connectionId: string;
}

/** One waiting job per connection: a second enqueue while one waits or runs is a no-op. BullMQ refuses ':' in custom ids. */
export const refreshJobId = (connectionId: string) => `refresh-${connectionId}`;

/** Queue of key-rotation passes: re-seal every stored secret under the key ring's primary key. */
export const VAULT_QUEUE = 'vault-keys';
export const REENCRYPT = 'reencrypt';

export interface ReencryptJob {
  /** The primary key id the requester expects; a worker with another primary refuses the job. */
  primaryKeyId: string;
  requestedAt: string;
}
