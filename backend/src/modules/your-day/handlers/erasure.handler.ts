import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ErasingAccountEvent } from '../../data-rights/public/events.js';
import { DaySyncService } from '../day-sync.service.js';

/** Erasure, your-day's part: every view and snapshot, and the remembered zone. Safe to run again. */
@EventsHandler(ErasingAccountEvent)
export class DayErasureHandler implements IEventHandler<ErasingAccountEvent> {
  constructor(private readonly sync: DaySyncService) {}
  async handle(event: ErasingAccountEvent): Promise<void> {
    await this.sync.erase(event.userId);
  }
}
