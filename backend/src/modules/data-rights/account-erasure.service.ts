import { Injectable, Logger } from '@nestjs/common';
import { CreateRequestContext } from '@mikro-orm/decorators/legacy';
import { EntityManager } from '@mikro-orm/postgresql';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { confirmsErasure, type ErasureAccepted } from '@life/contracts';
import { AwaitingEventPublisher } from '../../core/events/awaiting-event-publisher.js';
import type { AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { OutboxService } from '../../core/outbox/outbox.service.js';
import { DeletePersonCommand, MarkErasureRequestedCommand } from '../users/public/commands.js';
import { PersonQuery, PendingErasuresQuery } from '../users/public/queries.js';
import { DataRightsError, DataRightsErrorCode } from './data-rights.errors.js';
import { DataRightsQueues } from './data-rights.queues.js';
import type { ErasureOutcome } from './public/commands.js';
import { AccountErasedEvent, AccountErasureRequestedEvent, ErasingAccountEvent, ErasureRequestedEvent } from './public/events.js';
import { msg } from '../../core/i18n/messages.js';

/**
 * 'Eliminar mi cuenta'. The request (web) marks the account and writes the durable
 * `AccountErasureRequestedEvent` in one transaction, then signs the person out everywhere at
 * once; the outbox queues the job, which asks every module to erase its own part
 * (`ErasingAccountEvent`) and deletes the account row last. Every part works on what is left,
 * so running the job twice, or again after it stopped half-way, finishes the same erasure.
 */
@Injectable()
export class AccountErasureService {
  private readonly logger = new Logger('AccountErasure');

  constructor(
    // For @CreateRequestContext and the request's transaction.
    private readonly em: EntityManager,
    private readonly queues: DataRightsQueues,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly events: AwaitingEventPublisher,
    private readonly outbox: OutboxService,
  ) {}

  async request(user: Pick<AuthenticatedUser, 'id' | 'username'>, confirm: string): Promise<ErasureAccepted> {
    if (!confirmsErasure(confirm, user.username)) {
      throw new DataRightsError(DataRightsErrorCode.ConfirmationMismatch, msg('dataRights.confirmationMismatch'));
    }
    const staged: string[] = [];
    const requestedAt = await this.em.transactional(async (em) => {
      const at = await this.commands.execute(new MarkErasureRequestedCommand(user.id));
      staged.push(this.outbox.stage(em, new AccountErasureRequestedEvent(user.id)));
      return at;
    });
    try {
      // Signed out everywhere now (auth), recorded (audit), and only then the job: a worker that
      // erases at once must find the request's audit record already written, or its anonymising
      // would miss it (this record carries the request's IP and browser).
      await this.events.publishStrict(new ErasureRequestedEvent(user.id));
    } finally {
      await this.outbox.relay(staged);
    }
    this.logger.log({ userId: user.id }, 'Account erasure requested');
    return { status: 'accepted', requested_at: (requestedAt ?? new Date()).toISOString() };
  }

  /** The outbox delivered the request: queue the erasure job (throws while Redis is away, so the delivery retries). */
  async queueFromOutbox(userId: string): Promise<void> {
    await this.queues.enqueueErasureOrThrow(userId);
  }

  /** Worker: erases one account. Throws (so BullMQ retries) when a module could not erase its part. */
  @CreateRequestContext()
  async erase(userId: string): Promise<ErasureOutcome> {
    const person = await this.queries.execute(new PersonQuery(userId));
    if (!person) return { outcome: 'already_erased' };
    // Only an account whose owner asked: a stray or replayed job erases nothing.
    if (!person.erasureRequestedAt) return { outcome: 'not_requested' };

    const erasing = new ErasingAccountEvent(userId, person.email, person.erasureRequestedAt);
    await this.events.publishStrict(erasing);
    const report = erasing.report;
    await this.events.publishStrict(new AccountErasedEvent(userId, report));
    await this.commands.execute(new DeletePersonCommand(userId));
    const summary = {
      connections: report.connections ?? 0,
      revokedAtProvider: report.revoked_at_provider ?? 0,
      appGrants: report.app_grants ?? 0,
      membershipKept: report.membership_kept ?? false,
    };
    this.logger.log({ userId, ...summary }, 'Account erased');
    return { outcome: 'erased', ...summary };
  }

  /** Sweeper: queues again every erasure still pending (its job failed a while ago, or was lost with Redis). */
  async sweep(olderThanMs: number): Promise<number> {
    let count = 0;
    for (const id of await this.queries.execute(new PendingErasuresQuery(olderThanMs))) {
      count += (await this.queues.enqueueErasure(id, { retryFailed: true })) ? 1 : 0;
    }
    return count;
  }
}
