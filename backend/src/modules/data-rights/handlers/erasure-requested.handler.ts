import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { AccountErasureService } from '../account-erasure.service.js';
import { AccountErasureRequestedEvent } from '../public/events.js';

/** Delivered by the outbox (worker): the erasure job is queued, even if the requesting process died after its commit. */
@EventsHandler(AccountErasureRequestedEvent)
export class AccountErasureRequestedHandler implements IEventHandler<AccountErasureRequestedEvent> {
  constructor(private readonly erasure: AccountErasureService) {}

  handle(event: AccountErasureRequestedEvent): Promise<void> {
    return this.erasure.queueFromOutbox(event.userId);
  }
}
