import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { addOnce } from '../../core/queue/jobs.js';
import { CONTACT_MAIL_QUEUE, DELIVER_CONTACT_MESSAGE, DELIVER_RECONNECT_NOTICE, DELIVERY_ATTEMPTS, type ContactMailJob } from './jobs/contact-mail.job.js';

/** A queue call must never hold an HTTP request while Redis is away. */
const ENQUEUE_TIMEOUT_MS = 2000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The producer side of `contact-mail`, used by web processes (new messages) and by the sweeper. */
@Injectable()
export class ContactMailQueue {
  private readonly logger = new Logger('ContactMail');

  constructor(
    @InjectQueue(CONTACT_MAIL_QUEUE) private readonly queue: Queue<ContactMailJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Best effort, never throws: the job id is the message id, so a message already waiting or
   * retrying is not queued twice; what cannot be queued now (Redis away) the sweeper queues later.
   */
  enqueue(messageId: string): Promise<boolean> {
    return this.add(DELIVER_CONTACT_MESSAGE, { messageId }, messageId);
  }

  /** A reconnect notice's mail, the same way (job id `notice-<id>`; the contact sweeper re-queues what is left). */
  enqueueNotice(noticeId: string): Promise<boolean> {
    return this.add(DELIVER_RECONNECT_NOTICE, { noticeId }, `notice-${noticeId}`);
  }

  private async add(name: string, data: ContactMailJob, jobId: string): Promise<boolean> {
    try {
      const outcome = await within(
        addOnce(
          this.queue,
          name,
          data,
          { jobId, attempts: DELIVERY_ATTEMPTS, backoff: { type: 'exponential', delay: this.config.contact.retryDelayMs } },
          // A failed delivery stays in Salud for a sweep period, then the sweeper tries again.
          this.config.contact.sweepMs,
        ),
        ENQUEUE_TIMEOUT_MS,
      );
      return outcome !== 'failed';
    } catch (error) {
      this.logger.warn(
        `Mail ${jobId} is stored but could not be queued yet (${error instanceof Error ? error.message : String(error)}); the sweeper will retry.`,
      );
      return false;
    }
  }
}
