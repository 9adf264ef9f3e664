import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { BetaInviteDto, LoginProviderDto } from '@life/contracts';
import { BetaInvitesService } from '../beta-invites.service.js';
import type { CheckReport } from '../../../core/config-check/config-check.js';
import { LoginProviderCheckService } from '../login-provider-check.service.js';
import { LoginProvidersService } from '../login-providers.service.js';
import {
  CheckLoginProviderCommand,
  CreateLoginProviderCommand,
  DeleteLoginProviderCommand,
  InviteToBetaCommand,
  ListBetaInvitesQuery,
  ListLoginProvidersQuery,
  UpdateLoginProviderCommand,
  WithdrawBetaInviteCommand,
} from '../public/commands.js';

@QueryHandler(ListBetaInvitesQuery)
export class ListBetaInvitesHandler implements IQueryHandler<ListBetaInvitesQuery> {
  constructor(private readonly invites: BetaInvitesService) {}
  execute(): Promise<BetaInviteDto[]> {
    return this.invites.list();
  }
}

@CommandHandler(InviteToBetaCommand)
export class InviteToBetaHandler implements ICommandHandler<InviteToBetaCommand> {
  constructor(private readonly invites: BetaInvitesService) {}
  execute({ email, invitedBy }: InviteToBetaCommand): Promise<BetaInviteDto> {
    return this.invites.invite(email, invitedBy);
  }
}

@CommandHandler(WithdrawBetaInviteCommand)
export class WithdrawBetaInviteHandler implements ICommandHandler<WithdrawBetaInviteCommand> {
  constructor(private readonly invites: BetaInvitesService) {}
  execute({ email }: WithdrawBetaInviteCommand): Promise<void> {
    return this.invites.remove(email);
  }
}

@QueryHandler(ListLoginProvidersQuery)
export class ListLoginProvidersHandler implements IQueryHandler<ListLoginProvidersQuery> {
  constructor(private readonly providers: LoginProvidersService) {}
  execute(): Promise<LoginProviderDto[]> {
    return this.providers.list();
  }
}

@CommandHandler(CreateLoginProviderCommand)
export class CreateLoginProviderHandler implements ICommandHandler<CreateLoginProviderCommand> {
  constructor(private readonly providers: LoginProvidersService) {}
  execute({ input }: CreateLoginProviderCommand): Promise<LoginProviderDto> {
    return this.providers.create(input);
  }
}

@CommandHandler(UpdateLoginProviderCommand)
export class UpdateLoginProviderHandler implements ICommandHandler<UpdateLoginProviderCommand> {
  constructor(private readonly providers: LoginProvidersService) {}
  execute({ id, input }: UpdateLoginProviderCommand): Promise<LoginProviderDto> {
    return this.providers.update(id, input);
  }
}

@CommandHandler(DeleteLoginProviderCommand)
export class DeleteLoginProviderHandler implements ICommandHandler<DeleteLoginProviderCommand> {
  constructor(private readonly providers: LoginProvidersService) {}
  execute({ id }: DeleteLoginProviderCommand): Promise<void> {
    return this.providers.remove(id);
  }
}

@CommandHandler(CheckLoginProviderCommand)
export class CheckLoginProviderHandler implements ICommandHandler<CheckLoginProviderCommand> {
  constructor(private readonly checker: LoginProviderCheckService) {}
  execute({ id, adminId }: CheckLoginProviderCommand): Promise<CheckReport> {
    return this.checker.check(id, adminId);
  }
}

export const AUTH_ADMIN_HANDLERS = [
  CheckLoginProviderHandler,
  ListBetaInvitesHandler,
  InviteToBetaHandler,
  WithdrawBetaInviteHandler,
  ListLoginProvidersHandler,
  CreateLoginProviderHandler,
  UpdateLoginProviderHandler,
  DeleteLoginProviderHandler,
];
