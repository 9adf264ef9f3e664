import { Command, Query } from '@nestjs/cqrs';
import type { BetaInviteDto, LoginProviderDto, LoginProviderInput } from '@life/contracts';

// Beta invitations (admin panel, CLI).

export class ListBetaInvitesQuery extends Query<BetaInviteDto[]> {}

export class InviteToBetaCommand extends Command<BetaInviteDto> {
  constructor(
    readonly email: string,
    /** Who invited (an admin's e-mail), or null from the command line. */
    readonly invitedBy: string | null,
  ) {
    super();
  }
}

export class WithdrawBetaInviteCommand extends Command<void> {
  constructor(readonly email: string) {
    super();
  }
}

// Login providers (admin panel; secrets are masked in every answer).

export class ListLoginProvidersQuery extends Query<LoginProviderDto[]> {}

export class CreateLoginProviderCommand extends Command<LoginProviderDto> {
  constructor(readonly input: LoginProviderInput) {
    super();
  }
}

export class UpdateLoginProviderCommand extends Command<LoginProviderDto> {
  constructor(
    readonly id: string,
    readonly input: LoginProviderInput,
  ) {
    super();
  }
}

export class DeleteLoginProviderCommand extends Command<void> {
  constructor(readonly id: string) {
    super();
  }
}
