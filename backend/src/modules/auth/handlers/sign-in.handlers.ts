import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { LoginSuccess } from '@life/contracts';
import { LoginFlowService } from '../login-flow.service.js';
import { AcceptFormPostCommand, BeginSignInCommand, CompleteSignInCommand, LogoutCommand } from '../public/commands.js';
import { SessionService } from '../session.service.js';

@CommandHandler(BeginSignInCommand)
export class BeginSignInHandler implements ICommandHandler<BeginSignInCommand> {
  constructor(private readonly flow: LoginFlowService) {}
  execute({ provider, returnTo, ip }: BeginSignInCommand): Promise<{ url: string; browserBinding: string }> {
    return this.flow.begin(provider, returnTo, ip);
  }
}

@CommandHandler(CompleteSignInCommand)
export class CompleteSignInHandler implements ICommandHandler<CompleteSignInCommand> {
  constructor(private readonly flow: LoginFlowService) {}
  execute({ provider, answer, browserBinding, meta }: CompleteSignInCommand): Promise<LoginSuccess> {
    return this.flow.complete(provider, answer, browserBinding, meta);
  }
}

@CommandHandler(AcceptFormPostCommand)
export class AcceptFormPostHandler implements ICommandHandler<AcceptFormPostCommand> {
  constructor(private readonly flow: LoginFlowService) {}
  execute({ provider, form }: AcceptFormPostCommand): Promise<string> {
    return this.flow.acceptFormPost(provider, form);
  }
}

@CommandHandler(LogoutCommand)
export class LogoutHandler implements ICommandHandler<LogoutCommand> {
  constructor(private readonly sessions: SessionService) {}
  async execute({ token }: LogoutCommand): Promise<void> {
    await this.sessions.revoke(token);
  }
}

export const AUTH_SIGN_IN_HANDLERS = [BeginSignInHandler, CompleteSignInHandler, AcceptFormPostHandler, LogoutHandler];
