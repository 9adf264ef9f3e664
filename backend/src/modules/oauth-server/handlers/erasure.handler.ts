import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ErasingAccountEvent } from '../../data-rights/public/events.js';
import { AuthorizationService } from '../authorization.service.js';

/** Erasure, the authorization server's part: every app grant revoked, and every token issued for the person. */
@EventsHandler(ErasingAccountEvent)
export class AppGrantsErasureHandler implements IEventHandler<ErasingAccountEvent> {
  constructor(private readonly authorization: AuthorizationService) {}

  async handle(event: ErasingAccountEvent): Promise<void> {
    const revoked = await this.authorization.revokeAllFor(event.userId);
    event.report.app_grants = revoked.grants;
    event.report.app_tokens = revoked.tokens;
  }
}
