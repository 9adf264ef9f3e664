import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ErasingAccountEvent, ErasureRequestedEvent } from '../../data-rights/public/events.js';
import { AuthorizationService } from '../authorization.service.js';

/**
 * Erasure, the authorization server's part: every app grant revoked, and every token issued for
 * the person, as soon as the erasure is asked for (no app represents them from then on) and again
 * when the job runs. A token being issued at that very moment is revoked at birth: its grant is
 * revoked (TokenStore.insert).
 */
@EventsHandler(ErasureRequestedEvent, ErasingAccountEvent)
export class AppGrantsErasureHandler implements IEventHandler<ErasureRequestedEvent | ErasingAccountEvent> {
  constructor(private readonly authorization: AuthorizationService) {}

  async handle(event: ErasureRequestedEvent | ErasingAccountEvent): Promise<void> {
    await this.authorization.revokeAllFor(event.userId);
    if (event instanceof ErasingAccountEvent) {
      const revoked = await this.authorization.revokedSince(event.userId, event.requestedAt);
      event.report.app_grants = revoked.grants;
      event.report.app_tokens = revoked.tokens;
    }
  }
}
