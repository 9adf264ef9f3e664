import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ErasingAccountEvent } from '../../data-rights/public/events.js';
import { AuditService } from '../audit.service.js';

/** Erasure: the person's records keep what happened and when, no longer who, from where or with what. */
@EventsHandler(ErasingAccountEvent)
export class AuditErasureHandler implements IEventHandler<ErasingAccountEvent> {
  constructor(private readonly audit: AuditService) {}

  async handle(event: ErasingAccountEvent): Promise<void> {
    await this.audit.anonymiseActor(event.userId, event.email);
  }
}
