/** What the authorization server tells the rest of Life happened (in-process, awaited: see AwaitingEventPublisher). */

export class ConsentGivenEvent {
  constructor(
    readonly clientId: string,
    readonly scopes: string[],
    readonly grantId: string,
  ) {}
}

export class ConsentDeniedEvent {
  constructor(
    readonly clientId: string,
    readonly scopes: string[],
  ) {}
}

/** An authorization code was presented twice: the tokens it issued were revoked. */
export class CodeReplayDetectedEvent {
  constructor(
    readonly codeId: string,
    readonly revokedCount: number,
  ) {}
}

/** A rotated refresh token was presented again: its whole family was revoked. */
export class RefreshReuseDetectedEvent {
  constructor(
    readonly familyId: string,
    readonly revokedCount: number,
  ) {}
}

/** The person revoked an app's grant on their profile: its tokens stopped working. */
export class GrantRevokedEvent {
  constructor(
    readonly grantId: string,
    readonly clientId: string,
  ) {}
}

/**
 * Every grant and token of an app was revoked at once (decision 0050): an admin suspended it
 * (`suspended`), or the person who made it asked to erase their account (`developer_erasure`).
 */
export class AppAccessRevokedEvent {
  constructor(
    readonly clientId: string,
    readonly reason: 'suspended' | 'developer_erasure',
    readonly grants: number,
    readonly tokens: number,
  ) {}
}
