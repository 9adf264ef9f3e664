/** What sign-in tells the rest of Life (in-process, awaited: see AwaitingEventPublisher). */

export class SignedInEvent {
  constructor(
    readonly userId: string,
    readonly email: string,
    /** The login provider's name (github, google, ...). */
    readonly provider: string,
  ) {}
}

export class SignInRefusedEvent {
  constructor(
    readonly provider: string,
    /** The error code the person was answered with (invalid_state, not_invited, too_many_requests...). */
    readonly reason: string,
  ) {}
}
