/** Queue of stored contact messages waiting to be mailed (the database row is the source of truth). */
export const CONTACT_MAIL_QUEUE = 'contact-mail';

export const DELIVER_CONTACT_MESSAGE = 'deliver';

/** Only the id travels through Redis: the message itself stays in PostgreSQL. */
export interface ContactMailJob {
  messageId: string;
}

/** Tries per message before it is marked 'failed'; the delay doubles each time (CONTACT_RETRY_DELAY_MS first). */
export const DELIVERY_ATTEMPTS = 8;
