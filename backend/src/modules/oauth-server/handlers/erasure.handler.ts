import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ErasingAccountEvent, ErasureRequestedEvent } from '../../data-rights/public/events.js';
import { AuthorizationService } from '../authorization.service.js';
import { ClientsService } from '../clients.service.js';

/**
 * Erasure, the authorization server's part: every app grant revoked, and every token issued for
 * the person, as soon as the erasure is asked for (no app represents them from then on) and again
 * when the job runs. A token being issued at that very moment is revoked at birth: its grant is
 * revoked (TokenStore.insert).
 *
 * The apps the person made (decision 0037) stop at the same moment (decision 0050): suspended,
 * every grant other people gave them and every token issued to them revoked, so nothing keeps
 * working between the request and the account's deletion (which takes the apps with it).
 */
@EventsHandler(ErasureRequestedEvent, ErasingAccountEvent)
export class AppGrantsErasureHandler implements IEventHandler<ErasureRequestedEvent | ErasingAccountEvent> {
  constructor(
    private readonly authorization: AuthorizationService,
    private readonly clients: ClientsService,
  ) {}

  async handle(event: ErasureRequestedEvent | ErasingAccountEvent): Promise<void> {
    await this.authorization.revokeAllFor(event.userId);
    const apps = await this.clients.suspendAllOf(event.userId);
    for (const id of apps) await this.authorization.revokeAppAccess(id, 'developer_erasure');
    if (event instanceof ErasingAccountEvent) {
      const revoked = await this.authorization.revokedSince(event.userId, event.requestedAt);
      event.report.app_grants = revoked.grants;
      event.report.app_tokens = revoked.tokens;
      event.report.developer_apps = apps.length;
    }
  }
}
