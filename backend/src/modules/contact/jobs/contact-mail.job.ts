/** Queue of stored contact messages waiting to be mailed (the database row is the source of truth). */
export const CONTACT_MAIL_QUEUE = 'contact-mail';

export const DELIVER_CONTACT_MESSAGE = 'deliver';

/** A reconnect notice's mail (job id `notice-<id>`): one per broken connection. */
export const DELIVER_RECONNECT_NOTICE = 'reconnect-notice';

/** Only the id travels through Redis: the message (or the notice) itself stays in PostgreSQL. */
export interface ContactMailJob {
  messageId?: string;
  noticeId?: string;
}

/** Tries per message before it is marked 'failed'; the delay doubles each time (CONTACT_RETRY_DELAY_MS first). */
export const DELIVERY_ATTEMPTS = 8;
