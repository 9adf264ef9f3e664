import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ContactMessageDto, ContactMessageListFilter, ContactMessageSubmission } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { KeyRing } from '../../core/crypto/key-ring.js';
import { RateLimitService, type RateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { QueryBus } from '@nestjs/cqrs';
import { SessionPersonQuery } from '../auth/public/queries.js';
import { ContactError, ContactErrorCode } from './contact.errors.js';
import { ContactMailQueue } from './contact-mail.queue.js';
import { ContactMessage } from './entities/contact-message.entity.js';
import { msg } from '../../core/i18n/messages.js';

const HOUR_SECONDS = 3600;

export const toContactMessageDto = (message: ContactMessage): ContactMessageDto => ({
  id: message.id,
  name: message.name,
  email: message.email,
  subject: message.subject,
  message: message.message,
  user_id: message.user?.id ?? null,
  status: message.status,
  attempts: message.attempts,
  last_error: message.lastError ?? null,
  sent_at: message.sentAt?.toISOString() ?? null,
  handled_at: message.handledAt?.toISOString() ?? null,
  handled_by: message.handledBy ?? null,
  created_at: message.createdAt.toISOString(),
});

export interface ContactSender {
  ip: string;
  /** The bearer token, when the page sent one: links the message to that account. */
  bearerToken?: string;
}

@Injectable()
export class ContactService {
  private readonly logger = new Logger('Contact');
  private readonly perIp: RateLimit;
  private readonly perEmail: RateLimit;

  constructor(
    private readonly em: EntityManager,
    private readonly queries: QueryBus,
    private readonly queue: ContactMailQueue,
    private readonly keyRing: KeyRing,
    rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const points = config.contact.rateLimitPerHour;
    this.perIp = rateLimits.create({ name: 'contact:ip', points, durationSeconds: HOUR_SECONDS });
    this.perEmail = rateLimits.create({ name: 'contact:email', points, durationSeconds: HOUR_SECONDS });
  }

  /**
   * Stores the message, then queues its delivery. A filled honeypot goes through the same
   * limits and gets the same answer, but nothing is kept or sent.
   */
  async submit(input: ContactMessageSubmission, sender: ContactSender): Promise<void> {
    await RateLimitService.consumeAll([
      [this.perIp, sender.ip],
      [this.perEmail, input.email],
    ]);
    if (input.website?.trim()) {
      this.logger.log('Contact form honeypot filled: message dropped');
      return;
    }
    const session = sender.bearerToken ? await this.queries.execute(new SessionPersonQuery(sender.bearerToken)) : null;
    const message = this.em.create(ContactMessage, {
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      user: session?.userId ?? null,
      ipHash: this.keyRing.keyedHash('contact-ip', sender.ip),
    });
    await this.em.flush();
    // Without SMTP there is nothing to deliver: the message waits in the admin panel.
    if (this.config.contact.smtpUrl) await this.queue.enqueue(message.id);
  }

  async list(filter: ContactMessageListFilter): Promise<ContactMessageDto[]> {
    const messages = await this.em.find(
      ContactMessage,
      { ...(filter.subject ? { subject: filter.subject } : {}), ...(filter.status ? { status: filter.status } : {}) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: filter.limit },
    );
    return messages.map(toContactMessageDto);
  }

  /** Idempotent: marking it again keeps the first admin and time. */
  async markHandled(id: string, adminEmail: string): Promise<ContactMessageDto> {
    const message = await this.em.findOne(ContactMessage, { id });
    if (!message) throw new ContactError(ContactErrorCode.MessageNotFound, msg('contact.messageNotFound'));
    if (!message.handledAt) {
      message.handledAt = new Date();
      message.handledBy = adminEmail;
      await this.em.flush();
    }
    return toContactMessageDto(message);
  }
}
