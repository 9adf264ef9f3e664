import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { UnrecoverableError } from 'bullmq';
import { ContactMailQueue } from './contact-mail.queue.js';
import { ContactMailer } from './contact-mailer.js';
import { ContactMessage } from './entities/contact-message.entity.js';

/** A message still 'received' this long after it was stored is queued again by the sweeper. */
export const SWEEP_AFTER_MS = 60_000;
const SWEEP_BATCH = 500;

export type DeliveryOutcome = 'sent' | 'already_sent' | 'gave_up' | 'handled' | 'missing' | 'not_configured';

interface MailError {
  code?: string;
  responseCode?: number;
  response?: string;
  permanent?: boolean;
  message?: string;
}

/** What admins see of a failed attempt: the SMTP code and answer, with any credentials in a URL masked. */
export function describeMailError(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as MailError;
  const text = [e.code, e.responseCode ? `SMTP ${e.responseCode}` : undefined, e.response ?? e.message].filter(Boolean).join(': ');
  return (text || 'unknown error').replace(/(smtps?:\/\/)[^\s@/]+@/gi, '$1***@').slice(0, 500);
}

/** 5xx answers (except 503) reject this message for good: retrying would get the same answer. */
const isPermanent = (error: unknown) => typeof error === 'object' && error !== null && (error as MailError).permanent === true;

/**
 * Mails stored contact messages, once each: a message already 'sent' is skipped, and the
 * queue's job id is the message id, so one message never has two jobs at a time.
 */
@Injectable()
export class ContactDeliveryService {
  private readonly logger = new Logger('ContactDelivery');

  constructor(
    private readonly em: EntityManager,
    private readonly mailer: ContactMailer,
    private readonly queue: ContactMailQueue,
  ) {}

  /** Whether mail can be sent at all (SMTP_URL set). */
  get configured(): boolean {
    return this.mailer.configured;
  }

  /** One attempt. Throws so that BullMQ retries (an UnrecoverableError stops the retries). */
  async deliver(messageId: string, { finalAttempt }: { finalAttempt: boolean }): Promise<DeliveryOutcome> {
    const em = this.em.fork();
    const message = await em.findOne(ContactMessage, { id: messageId });
    if (!message) return 'missing';
    if (message.status === 'sent') return 'already_sent';
    if (message.status === 'failed') return 'gave_up';
    // An admin already read and handled it in the panel: a mail would only repeat it.
    if (message.handledAt) return 'handled';
    // Without SMTP the message stays 'received' and visible to admins; nothing to retry.
    if (!this.mailer.configured) return 'not_configured';

    try {
      await this.mailer.send(message);
    } catch (error) {
      const reason = describeMailError(error);
      const giveUp = finalAttempt || isPermanent(error);
      await em.nativeUpdate(
        ContactMessage,
        { id: message.id, status: 'received' },
        { attempts: message.attempts + 1, lastError: reason, ...(giveUp ? { status: 'failed' as const } : {}) },
      );
      this.logger.warn(`Contact message ${message.id}: attempt ${message.attempts + 1} failed (${reason})${giveUp ? '; giving up' : '; will retry'}`);
      throw isPermanent(error) ? new UnrecoverableError(reason) : new Error(reason);
    }
    await em.nativeUpdate(ContactMessage, { id: message.id }, { status: 'sent', sentAt: new Date(), attempts: message.attempts + 1, lastError: null });
    return 'sent';
  }

  /**
   * Queues again every message that is stored but was never delivered (Redis was away when it
   * arrived, a worker died): the job id collapses it with a job that is still waiting or retrying.
   */
  async sweep(olderThanMs = SWEEP_AFTER_MS): Promise<number> {
    if (!this.mailer.configured) return 0;
    const rows = await this.em
      .fork()
      .find(
        ContactMessage,
        { status: 'received', handledAt: null, createdAt: { $lt: new Date(Date.now() - olderThanMs) } },
        { orderBy: { createdAt: 'asc' }, limit: SWEEP_BATCH, fields: ['id'] },
      );
    for (const row of rows) await this.queue.enqueue(row.id);
    return rows.length;
  }
}
