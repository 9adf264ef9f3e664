import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { Queue } from 'bullmq';
import { addOnce } from '../queue/jobs.js';
import { within } from '../util/within.js';
import { durableName } from './durable-event.js';
import { OutboxMessage } from './outbox-message.entity.js';

export const OUTBOX_QUEUE = 'outbox';
export const DELIVER_OUTBOX_MESSAGE = 'deliver';
export const OUTBOX_ATTEMPTS = 10;
const RELAY_TIMEOUT_MS = 3000;
/** Delivered rows are kept this long (what happened, for support), then deleted by the sweeper. */
const KEEP_DELIVERED_DAYS = 7;
/** A relayed message not delivered after this long is handed to the queue again if its job is gone. */
const UNDELIVERED_CHECK_MS = 15 * 60_000;

export interface OutboxJob {
  messageId: string;
}

/**
 * The transactional outbox. `stage(em, event)` inside the caller's transaction writes the event
 * with the change; after the commit, `relay(ids)` hands it to the `outbox` queue (best effort,
 * bounded). Whatever is not relayed (the process died between commit and relay, Redis was away)
 * the sweeper relays after `OUTBOX_SWEEP_MS`. Delivery is at least once: handlers are idempotent.
 */
@Injectable()
export class OutboxService {
  private readonly logger = new Logger('Outbox');

  constructor(
    private readonly em: EntityManager,
    @InjectQueue(OUTBOX_QUEUE) private readonly queue: Queue<OutboxJob>,
  ) {}

  /** Adds the event to the unit of work of `em` (the caller's transaction); returns the message id. */
  stage(em: EntityManager, event: object): string {
    const message = new OutboxMessage(durableName(event), JSON.parse(JSON.stringify(event)) as Record<string, unknown>);
    em.persist(message);
    return message.id;
  }

  /** After the commit: hands the messages to the queue and marks them relayed. Never throws. */
  async relay(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    try {
      return await within(this.relayNow(ids), RELAY_TIMEOUT_MS);
    } catch (error) {
      this.logger.warn(`Could not relay ${ids.length} outbox message(s) yet (${error instanceof Error ? error.message : String(error)}); the sweeper will.`);
      return 0;
    }
  }

  private async relayNow(ids: string[]): Promise<number> {
    let queued = 0;
    for (const messageId of ids) {
      const outcome = await addOnce(
        this.queue,
        DELIVER_OUTBOX_MESSAGE,
        { messageId },
        { jobId: messageId, attempts: OUTBOX_ATTEMPTS, backoff: { type: 'exponential', delay: 2000 } },
      );
      if (outcome === 'added') queued += 1;
    }
    await this.em.fork().nativeUpdate(OutboxMessage, { id: { $in: ids }, relayedAt: null }, { relayedAt: new Date() });
    return queued;
  }

  /**
   * The sweeper: relays messages stored more than `olderThanMs` ago and never relayed, and those
   * relayed long ago but still undelivered whose job the queue no longer has (a failed job stays
   * in Salud instead, until an admin retries or discards it); forgets old delivered ones.
   */
  async relayPending(olderThanMs: number, limit = 500): Promise<number> {
    const em = this.em.fork();
    const now = Date.now();
    const pending = await em.find(
      OutboxMessage,
      {
        deliveredAt: null,
        $or: [{ relayedAt: null, createdAt: { $lt: new Date(now - olderThanMs) } }, { relayedAt: { $lt: new Date(now - UNDELIVERED_CHECK_MS) } }],
      },
      { fields: ['id'], orderBy: { createdAt: 'asc' }, limit },
    );
    await em.nativeDelete(OutboxMessage, { deliveredAt: { $lt: new Date(now - KEEP_DELIVERED_DAYS * 86_400_000) } });
    return pending.length === 0 ? 0 : this.relayNow(pending.map((message) => message.id));
  }

  /** The outbox worker: every handler succeeded. */
  async markDelivered(id: string): Promise<void> {
    await this.em.fork().nativeUpdate(OutboxMessage, { id, deliveredAt: null }, { deliveredAt: new Date() });
  }

  async find(id: string): Promise<OutboxMessage | null> {
    return this.em.fork().findOne(OutboxMessage, { id });
  }
}
