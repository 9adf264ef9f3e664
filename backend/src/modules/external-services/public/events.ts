import { DurableEvent } from '../../../core/outbox/durable-event.js';

/**
 * Durable (outbox): a connection lost its access (the provider refused its refresh token) and
 * waits for its person to connect it again. Written in the same transaction as the status
 * change, so whoever reacts (the audit log; contact, which mails the person once per break) hears
 * of it even if the worker dies right after. `eventId` makes a repeated delivery recognisable and
 * names the break. Also published when an access token expires with no refresh token (Battle.net).
 */
@DurableEvent('external-services.connection-needs-reconnect')
export class ConnectionNeedsReconnectEvent {
  constructor(
    readonly eventId: string,
    readonly connectionId: string,
    readonly userId: string,
    readonly serviceName: string,
    /** The language the person connected in (null: unknown, or an event stored before it was sent). */
    readonly language: string | null = null,
  ) {}
}

/** A person connected a service (or connected it again): whoever shows its data may fetch it now ("Tu día"). */
export class ServiceConnectedEvent {
  constructor(
    readonly userId: string,
    readonly serviceName: string,
  ) {}
}

/**
 * A person disconnected a service: whoever kept data fetched through it deletes it. Published
 * after the connection is gone, so a fetch that starts later finds no connection.
 */
export class ServiceDisconnectedEvent {
  constructor(
    readonly userId: string,
    readonly serviceName: string,
  ) {}
}
