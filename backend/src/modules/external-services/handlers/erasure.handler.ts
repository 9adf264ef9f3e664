import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ErasingAccountEvent } from '../../data-rights/public/events.js';
import { ConnectionsService } from '../connections.service.js';

/** Erasure, external-services' part: every connection revoked at the provider where it can be, then deleted. */
@EventsHandler(ErasingAccountEvent)
export class ConnectionsErasureHandler implements IEventHandler<ErasingAccountEvent> {
  constructor(private readonly connections: ConnectionsService) {}

  async handle(event: ErasingAccountEvent): Promise<void> {
    const disconnected = await this.connections.disconnectAll(event.userId);
    event.report.connections = disconnected.length;
    event.report.revoked_at_provider = disconnected.filter((entry) => entry.revoked_at_provider).length;
    event.report.not_revoked = disconnected.filter((entry) => !entry.revoked_at_provider).map((entry) => entry.service);
  }
}
