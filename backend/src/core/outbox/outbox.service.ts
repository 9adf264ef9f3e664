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
/** Relayed rows are kept this long (what happened, for support), then deleted by the sweeper. */
const KEEP_RELAYED_DAYS = 7;

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
    for (const messageId of ids) {
      await addOnce(
        this.queue,
        DELIVER_OUTBOX_MESSAGE,
        { messageId },
        { jobId: messageId, attempts: OUTBOX_ATTEMPTS, backoff: { type: 'exponential', delay: 2000 } },
      );
    }
    return this.em.fork().nativeUpdate(OutboxMessage, { id: { $in: ids }, relayedAt: null }, { relayedAt: new Date() });
  }

  /** The sweeper: relays messages stored more than `olderThanMs` ago and never relayed; forgets old relayed ones. */
  async relayPending(olderThanMs: number, limit = 500): Promise<number> {
    const em = this.em.fork();
    const pending = await em.find(
      OutboxMessage,
      { relayedAt: null, createdAt: { $lt: new Date(Date.now() - olderThanMs) } },
      { fields: ['id'], orderBy: { createdAt: 'asc' }, limit },
    );
    await em.nativeDelete(OutboxMessage, { relayedAt: { $lt: new Date(Date.now() - KEEP_RELAYED_DAYS * 86_400_000) } });
    return pending.length === 0 ? 0 : this.relayNow(pending.map((message) => message.id));
  }

  async find(id: string): Promise<OutboxMessage | null> {
    return this.em.fork().findOne(OutboxMessage, { id });
  }
}
