import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { isLanguage, serviceDisplayName, SOURCE_LANGUAGE } from '@life/contracts';
import { UnrecoverableError } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { msg, render } from '../../core/i18n/messages.js';
import { PersonQuery } from '../users/public/queries.js';
import { describeMailError, SWEEP_AFTER_MS } from './contact-delivery.service.js';
import { ContactMailQueue } from './contact-mail.queue.js';
import { ContactMailer, type ContactMail } from './contact-mailer.js';
import type { ContactDb } from './entities/index.js';
import { ReconnectNotice } from './entities/reconnect-notice.entity.js';

export type NoticeOutcome = 'sent' | 'already_sent' | 'gave_up' | 'no_address' | 'missing' | 'not_configured';

/** What one break announces: the durable event's fields contact needs. */
export interface BrokenConnection {
  breakId: string;
  connectionId: string;
  userId: string;
  serviceName: string;
  language: string | null;
}

/**
 * "Your connection broke, reconnect it": one e-mail per break, in the language the person
 * connected in, through the contact-mail queue and the same SMTP mailer as contact messages.
 * A break is the id of the durable event that announced it, stored unique: a repeated delivery
 * of the event finds its row and mails nothing more; a later break (after a reconnect) is a new
 * event, so a new row and a new mail.
 */
@Injectable()
export class ReconnectNotices {
  private readonly logger = new Logger('ReconnectNotices');

  constructor(
    private readonly em: EntityManager,
    private readonly queue: ContactMailQueue,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Records the break (once) and queues its mail; a row already sent or given up is left alone. */
  async record(broken: BrokenConnection): Promise<void> {
    const db = this.em.fork().getKysely<ContactDb>();
    const language = broken.language && isLanguage(broken.language) ? broken.language : SOURCE_LANGUAGE;
    await db
      .insertInto('reconnect_notices')
      .values({
        id: randomUUID(),
        break_id: broken.breakId,
        connection_id: broken.connectionId,
        user_id: broken.userId,
        service_name: broken.serviceName.slice(0, 64),
        language,
        status: 'pending',
        attempts: 0,
        created_at: new Date(),
      })
      .onConflict((oc) => oc.column('break_id').doNothing())
      .execute();
    const row = await db.selectFrom('reconnect_notices').select(['id', 'status']).where('break_id', '=', broken.breakId).executeTakeFirst();
    if (row?.status === 'pending') await this.queue.enqueueNotice(row.id);
  }

  /** The mail for one notice, in its language: plain text, a Message-ID derived from the break. */
  compose(notice: ReconnectNotice, person: { email: string; username: string }): ContactMail {
    const language = isLanguage(notice.language) ? notice.language : SOURCE_LANGUAGE;
    const service = serviceDisplayName(notice.serviceName);
    const host = new URL(this.config.appUrl).hostname || 'life.local';
    return {
      from: this.config.contact.from,
      to: person.email,
      subject: render(msg('contact.reconnectMailSubject', { service }), language),
      text: render(msg('contact.reconnectMailBody', { service, name: person.username, url: `${this.config.appUrl}/dashboard` }), language),
      messageId: `<reconnect-${notice.breakId}@${host}>`,
      headers: { 'X-Life-Reconnect-Notice': notice.id, 'Content-Language': language },
    };
  }

  /** One attempt (throws so that the queue retries; the last failed attempt marks it failed). */
  async deliver(noticeId: string, mailer: ContactMailer, { finalAttempt }: { finalAttempt: boolean }): Promise<NoticeOutcome> {
    const em = this.em.fork();
    const notice = await em.findOne(ReconnectNotice, { id: noticeId });
    if (!notice) return 'missing';
    if (notice.status === 'sent') return 'already_sent';
    if (notice.status === 'failed') return 'gave_up';
    if (notice.status === 'no_address') return 'no_address';
    if (!mailer.configured) return 'not_configured';
    const person = await this.queries.execute(new PersonQuery(notice.user.id));
    if (!person || person.erasureRequestedAt) {
      await em.nativeUpdate(ReconnectNotice, { id: notice.id }, { status: 'no_address' });
      return 'no_address';
    }
    try {
      await mailer.sendMail(this.compose(notice, person));
    } catch (error) {
      const reason = describeMailError(error);
      const permanent = typeof error === 'object' && error !== null && (error as { permanent?: boolean }).permanent === true;
      const giveUp = finalAttempt || permanent;
      await em.nativeUpdate(
        ReconnectNotice,
        { id: notice.id, status: 'pending' },
        { attempts: notice.attempts + 1, lastError: reason, ...(giveUp ? { status: 'failed' as const } : {}) },
      );
      this.logger.warn(`Reconnect notice ${notice.id}: attempt ${notice.attempts + 1} failed (${reason})${giveUp ? '; giving up' : '; will retry'}`);
      throw permanent ? new UnrecoverableError(reason) : new Error(reason);
    }
    await em.nativeUpdate(ReconnectNotice, { id: notice.id }, { status: 'sent', sentAt: new Date(), attempts: notice.attempts + 1, lastError: null });
    return 'sent';
  }

  /** Queues again the notices recorded but never mailed (Redis away, a worker died); job ids collapse repeats. */
  async sweep(olderThanMs = SWEEP_AFTER_MS): Promise<number> {
    const rows = await this.em
      .fork()
      .find(
        ReconnectNotice,
        { status: 'pending', createdAt: { $lt: new Date(Date.now() - olderThanMs) } },
        { orderBy: { createdAt: 'asc' }, limit: 500, fields: ['id'] },
      );
    for (const row of rows) await this.queue.enqueueNotice(row.id);
    return rows.length;
  }
}
