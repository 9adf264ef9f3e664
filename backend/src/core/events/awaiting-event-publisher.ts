import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { EventBus, type IEvent, type IEventHandler, type IEventPublisher } from '@nestjs/cqrs';

/** Where `@EventsHandler(...)` keeps its event classes (@nestjs/cqrs's EVENTS_HANDLER_METADATA, not exported). */
const EVENTS_HANDLER_METADATA = '__eventsHandler__';

/**
 * The EventBus's publisher: `await eventBus.publish(event)` returns once every
 * `@EventsHandler` of that event has finished, in the caller's async context (so the audit log
 * still sees the request's IP and actor). A handler that fails is logged and does not fail the
 * caller or the other handlers; `publishStrict` (the outbox relay) rejects instead, so the job
 * retries. In-process events are for reactions that may be lost with the process; work that must
 * not be lost goes through the outbox (`OutboxService`).
 */
@Injectable()
export class AwaitingEventPublisher implements IEventPublisher, OnApplicationBootstrap {
  private readonly logger = new Logger('Events');
  private readonly handlers = new Map<unknown, IEventHandler[]>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly bus: EventBus,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.metatype || !wrapper.isDependencyTreeStatic() || !wrapper.instance) continue;
      const events = (Reflect.getMetadata(EVENTS_HANDLER_METADATA, wrapper.metatype) as unknown[] | undefined) ?? [];
      for (const event of events) this.handlers.set(event, [...(this.handlers.get(event) ?? []), wrapper.instance as IEventHandler]);
    }
    this.bus.publisher = this;
  }

  /** Handlers of this event's class, for tests and the outbox relay's check. */
  handlersOf(event: IEvent): IEventHandler[] {
    return this.handlers.get(event.constructor) ?? [];
  }

  async publish<T extends IEvent>(event: T): Promise<void> {
    const results = await Promise.allSettled(this.handlersOf(event).map((handler) => handler.handle(event)));
    for (const result of results) {
      if (result.status === 'rejected') this.logger.error({ err: result.reason, event: event.constructor.name }, 'An event handler failed');
    }
  }

  async publishAll<T extends IEvent>(events: T[]): Promise<void> {
    for (const event of events) await this.publish(event);
  }

  /**
   * For work that must all happen: runs the handlers one after the other (in the order their
   * modules were registered, so no two share the caller's unit of work at once), lets every one
   * run, then rejects with the first failure. Every handler must be safe to run again.
   */
  async publishStrict<T extends IEvent>(event: T): Promise<void> {
    let failure: unknown;
    for (const handler of this.handlersOf(event)) {
      try {
        await handler.handle(event);
      } catch (error) {
        this.logger.error({ err: error, event: event.constructor.name, handler: handler.constructor.name }, 'An event handler failed');
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  }
}
