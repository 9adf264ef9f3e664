import { Command, Query } from '@nestjs/cqrs';
import type { BetaInviteDto, LoginProviderDto, LoginProviderInput, LoginSuccess } from '@life/contracts';
import type { CheckReport } from '../../../core/config-check/config-check.js';

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

/** 'Comprobar configuración' (decision 0044): what is missing or wrong, without starting a sign-in. Rate-limited per admin. */
export class CheckLoginProviderCommand extends Command<CheckReport> {
  constructor(
    readonly id: string,
    readonly adminId: string,
  ) {
    super();
  }
}

// Signing in and out (the login controller; LoginFlowService keeps the rules and the rate limit).

/** 'Iniciar sesión con …': counts the attempt; where the browser goes and the value of its binding cookie. */
export class BeginSignInCommand extends Command<{ url: string; browserBinding: string }> {
  constructor(
    readonly provider: string,
    readonly returnTo: string | undefined,
    readonly ip: string,
  ) {
    super();
  }
}

/** The provider's answer: counts the attempt, signs the person in (or refuses), tells the audit log either way. */
export class CompleteSignInCommand extends Command<LoginSuccess> {
  constructor(
    readonly provider: string,
    readonly answer: { code: string; state: string; iss?: string },
    /** The binding cookie of the browser that started the sign-in. */
    readonly browserBinding: string | undefined,
    readonly meta: { ip: string; userAgent?: string },
  ) {
    super();
  }
}

/** Apple's form_post answer: keeps its one-time name; where the browser continues (the SPA callback page). */
export class AcceptFormPostCommand extends Command<string> {
  constructor(
    readonly provider: string,
    readonly form: { code?: string; state?: string; user?: string; error?: string },
  ) {
    super();
  }
}

/** Ends the web session of this bearer token on the server. */
export class LogoutCommand extends Command<void> {
  constructor(readonly token: string) {
    super();
  }
}
