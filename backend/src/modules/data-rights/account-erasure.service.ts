import { Injectable, Logger } from '@nestjs/common';
import { CreateRequestContext } from '@mikro-orm/decorators/legacy';
import { EntityManager } from '@mikro-orm/postgresql';
import { EventBus } from '@nestjs/cqrs';
import { AwaitingEventPublisher } from '../../core/events/awaiting-event-publisher.js';
import { confirmsErasure, type ErasureAccepted } from '@life/contracts';
import type { AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { SessionService } from '../auth/session.service.js';
import { BillingPrivacyService } from '../billing/billing-privacy.service.js';
import { ConnectionsService } from '../external-services/connections.service.js';
import { AuthorizationService } from '../oauth-server/authorization.service.js';
import { DataRightsError, DataRightsErrorCode } from './data-rights.errors.js';
import { DataRightsQueues } from './data-rights.queues.js';
import { PersonalDataRepository } from './personal-data.repository.js';
import { AccountErasedEvent, ErasureRequestedEvent } from './public/events.js';

export type ErasureOutcome =
  | { outcome: 'erased'; connections: number; revokedAtProvider: number; appGrants: number; membershipKept: boolean }
  | { outcome: 'already_erased' | 'not_requested' };

/**
 * 'Eliminar mi cuenta'. The request (web) marks the account, signs the person out everywhere at
 * once and queues the job; the job (worker) does the rest. Every step works on what is left, so
 * running the job twice, or again after it stopped half-way, finishes the same erasure.
 */
@Injectable()
export class AccountErasureService {
  private readonly logger = new Logger('AccountErasure');

  constructor(
    // For @CreateRequestContext: the job runs outside any HTTP request.
    private readonly em: EntityManager,
    private readonly data: PersonalDataRepository,
    private readonly queues: DataRightsQueues,
    private readonly sessions: SessionService,
    private readonly connections: ConnectionsService,
    private readonly authorization: AuthorizationService,
    private readonly billing: BillingPrivacyService,
    private readonly events: EventBus,
    private readonly strictEvents: AwaitingEventPublisher,
  ) {}

  async request(user: AuthenticatedUser, confirm: string): Promise<ErasureAccepted> {
    if (!confirmsErasure(confirm, user.username)) {
      throw new DataRightsError(DataRightsErrorCode.ConfirmationMismatch, 'La confirmación no coincide: escribe tu nombre de usuario o ELIMINAR.');
    }
    const requestedAt = await this.data.markErasureRequested(user.id);
    await this.sessions.revokeAllFor(user.id);
    await this.events.publish(new ErasureRequestedEvent(user.id));
    await this.queues.enqueueErasure(user.id);
    this.logger.log({ userId: user.id }, 'Account erasure requested');
    return { status: 'accepted', requested_at: (requestedAt ?? new Date()).toISOString() };
  }

  /** Worker: erases one account. Throws (so BullMQ retries) only when a step must not be skipped. */
  @CreateRequestContext()
  async erase(userId: string): Promise<ErasureOutcome> {
    const person = await this.data.person(userId);
    if (!person) return { outcome: 'already_erased' };
    // Only an account whose owner asked: a stray or replayed job erases nothing.
    if (!person.erasureRequestedAt) return { outcome: 'not_requested' };

    // Sessions were revoked at request time; again here in case one slipped in between.
    await this.sessions.revokeAllFor(userId);
    // Provider grants first: revoking may need the person's own client credentials, deleted below.
    const disconnected = await this.connections.disconnectAll(userId);
    const apps = await this.authorization.revokeAllFor(userId);
    const billing = await this.billing.forgetMember(userId);
    await this.data.deleteContactMessages(userId, person.email);
    await this.data.deleteBetaInvite(person.email);
    const summary = {
      connections: disconnected.length,
      revokedAtProvider: disconnected.filter((entry) => entry.revoked_at_provider).length,
      appGrants: apps.grants,
      membershipKept: billing.membershipKept,
    };
    // The audit log anonymises the person's records and records the erasure (idempotent).
    await this.strictEvents.publishStrict(
      new AccountErasedEvent(userId, person.email, {
        connections: summary.connections,
        revoked_at_provider: summary.revokedAtProvider,
        not_revoked: disconnected.filter((entry) => !entry.revoked_at_provider).map((entry) => entry.service),
        app_grants: summary.appGrants,
        app_tokens: apps.tokens,
        membership_kept: summary.membershipKept,
        subscription_cancelled: billing.subscriptionCancelled,
      }),
    );
    await this.data.deleteUser(userId);
    this.logger.log({ userId, ...summary }, 'Account erased');
    return { outcome: 'erased', ...summary };
  }

  /** Sweeper: queues again every erasure still pending (Redis lost it, or its job failed a while ago). */
  async sweep(olderThanMs: number): Promise<number> {
    let count = 0;
    for (const id of await this.data.pendingErasureIds(olderThanMs)) count += (await this.queues.enqueueErasure(id, { retryFailed: true })) ? 1 : 0;
    return count;
  }
}
