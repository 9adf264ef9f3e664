import type { DataExportDocument } from '@life/contracts';
import { DurableEvent } from '../../../core/outbox/durable-event.js';

/** The person's data rights, as the rest of Life hears of them. */

export class DataExportRequestedEvent {
  constructor(readonly exportId: string) {}
}

/**
 * The person asked to erase their account. Published strictly in the request: auth signs them
 * out everywhere at once, the audit log records it. (The erasure itself follows from the durable
 * `AccountErasureRequestedEvent`.)
 */
export class ErasureRequestedEvent {
  constructor(readonly userId: string) {}
}

/**
 * Durable (outbox): written in the same transaction as the account's erasure mark, so the
 * erasure job is queued even if the process dies right after the commit.
 */
@DurableEvent('data-rights.account-erasure-requested')
export class AccountErasureRequestedEvent {
  constructor(readonly userId: string) {}
}

/** What each module did while erasing, for the 'account.erased' record (no secrets). */
export interface ErasureReport {
  connections?: number;
  revoked_at_provider?: number;
  /** Services whose grant could not be revoked at the provider (the person may do it there). */
  not_revoked?: string[];
  app_grants?: number;
  app_tokens?: number;
  /** Apps the person made, suspended with everything they held (decision 0050). */
  developer_apps?: number;
  membership_kept?: boolean;
  subscription_cancelled?: boolean;
}

/**
 * The erasure job: every module erases its own part of the person (sessions and invitation,
 * connections revoked at the provider, app grants and tokens, billing anonymised, contact
 * messages, audit records anonymised) and adds what it did to `report`. Published strictly: a
 * failing module fails the job, which retries, so every handler must be safe to run again. The
 * account row is deleted after all of them (users' DeletePersonCommand).
 */
export class ErasingAccountEvent {
  readonly report: ErasureReport = {};

  constructor(
    readonly userId: string,
    readonly email: string,
    /** When the person asked: a module that already acted then reports what it did since. */
    readonly requestedAt: Date,
  ) {}
}

/** The account is erased but for its row, which goes next: the audit log records it (idempotent). */
export class AccountErasedEvent {
  constructor(
    readonly userId: string,
    readonly report: ErasureReport,
  ) {}
}

/** The parts of 'Descargar mis datos' that modules answer (everything but the header and data-rights' own list). */
export type PersonalDataParts = Partial<Omit<DataExportDocument, 'format' | 'version' | 'generated_at' | 'data_exports'>>;

/**
 * The export job asks: each module adds its own part of everything Life holds about the person
 * to `parts`, naming its columns (never a secret, a token or a hash). Published strictly, so a
 * module that cannot answer fails the export job, which retries.
 */
export class CollectingPersonalDataEvent {
  readonly parts: PersonalDataParts = {};

  constructor(
    readonly userId: string,
    readonly email: string,
  ) {}
}
