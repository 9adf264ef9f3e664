import { DurableEvent } from '../../../core/outbox/durable-event.js';

/**
 * Durable (outbox): a connection lost its access (the provider refused its refresh token) and
 * waits for its person to connect it again. Written in the same transaction as the status
 * change, so whoever reacts (today the audit log) hears of it even if the worker dies right after.
 * `eventId` makes a repeated delivery recognisable.
 */
@DurableEvent('external-services.connection-needs-reconnect')
export class ConnectionNeedsReconnectEvent {
  constructor(
    readonly eventId: string,
    readonly connectionId: string,
    readonly userId: string,
    readonly serviceName: string,
  ) {}
}
