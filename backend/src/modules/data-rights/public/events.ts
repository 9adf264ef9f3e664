/** The person's data rights, as the rest of Life hears of them. */

export class DataExportRequestedEvent {
  constructor(readonly exportId: string) {}
}

/** The person asked to erase their account (sessions are already revoked). */
export class ErasureRequestedEvent {
  constructor(readonly userId: string) {}
}

/**
 * The erasure job has revoked and deleted everything but the person's row, which goes next.
 * Published strictly (a failing handler fails the job, which retries): handlers must be idempotent.
 */
export class AccountErasedEvent {
  constructor(
    readonly userId: string,
    readonly email: string,
    /** What was done, for the record (no secrets). */
    readonly summary: Record<string, unknown>,
  ) {}
}
