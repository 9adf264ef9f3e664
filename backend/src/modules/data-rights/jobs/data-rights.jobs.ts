/** Builds one requested export (the `data_exports` row is the source of truth). */
export const DATA_EXPORT_QUEUE = 'data-export';
export const BUILD_DATA_EXPORT = 'build';

export interface DataExportJob {
  exportId: string;
}

/** Erases one account (the `users.erasure_requested_at` mark is the source of truth). */
export const ACCOUNT_ERASURE_QUEUE = 'account-erasure';
export const ERASE_ACCOUNT = 'erase';

/** Only the id travels through Redis. */
export interface AccountErasureJob {
  userId: string;
}

/** BullMQ refuses ':' in custom ids. */
export const erasureJobId = (userId: string) => `erase-${userId}`;

export const EXPORT_ATTEMPTS = 3;
/** Retried with exponential backoff from 30 s (about 8 minutes in all); after that the sweeper retries. */
export const ERASURE_ATTEMPTS = 5;
export const ERASURE_RETRY_DELAY_MS = 30_000;
