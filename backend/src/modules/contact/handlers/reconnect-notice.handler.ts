import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ConnectionNeedsReconnectEvent } from '../../external-services/public/events.js';
import { ReconnectNotices } from '../reconnect-notices.service.js';

/**
 * A connection broke (durable event, delivered at least once by the outbox worker): record one
 * notice per break and queue its e-mail. Idempotent: the event's id is the break's.
 */
@EventsHandler(ConnectionNeedsReconnectEvent)
export class ReconnectNoticeHandler implements IEventHandler<ConnectionNeedsReconnectEvent> {
  constructor(private readonly notices: ReconnectNotices) {}

  handle(event: ConnectionNeedsReconnectEvent): Promise<void> {
    return this.notices.record({
      breakId: event.eventId,
      connectionId: event.connectionId,
      userId: event.userId,
      serviceName: event.serviceName,
      language: event.language ?? null,
    });
  }
}
