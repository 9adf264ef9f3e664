import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { DeveloperApp, DeveloperAppList, DeveloperAppWithSecret, OAuthClientView } from '@life/contracts';
import { AuthorizationService } from '../authorization.service.js';
import { ClientsService } from '../clients.service.js';
import { DeveloperAppsService } from '../developer-apps.service.js';
import {
  CreateDeveloperAppCommand,
  DeleteDeveloperAppCommand,
  RotateDeveloperAppSecretCommand,
  SetOAuthClientStandingCommand,
  UpdateDeveloperAppCommand,
} from '../public/commands.js';
import { DeveloperAppsQuery } from '../public/queries.js';

// A person's own apps (DeveloperAppsController) and the admin's verify / suspend (decision 0037).

@QueryHandler(DeveloperAppsQuery)
export class DeveloperAppsHandler implements IQueryHandler<DeveloperAppsQuery> {
  constructor(private readonly apps: DeveloperAppsService) {}
  execute({ userId }: DeveloperAppsQuery): Promise<DeveloperAppList> {
    return this.apps.list(userId);
  }
}

@CommandHandler(CreateDeveloperAppCommand)
export class CreateDeveloperAppHandler implements ICommandHandler<CreateDeveloperAppCommand> {
  constructor(private readonly apps: DeveloperAppsService) {}
  execute({ userId, input }: CreateDeveloperAppCommand): Promise<DeveloperAppWithSecret> {
    return this.apps.create(userId, input);
  }
}

@CommandHandler(UpdateDeveloperAppCommand)
export class UpdateDeveloperAppHandler implements ICommandHandler<UpdateDeveloperAppCommand> {
  constructor(private readonly apps: DeveloperAppsService) {}
  execute({ userId, id, input }: UpdateDeveloperAppCommand): Promise<DeveloperApp> {
    return this.apps.update(userId, id, input);
  }
}

@CommandHandler(RotateDeveloperAppSecretCommand)
export class RotateDeveloperAppSecretHandler implements ICommandHandler<RotateDeveloperAppSecretCommand> {
  constructor(private readonly apps: DeveloperAppsService) {}
  execute({ userId, id }: RotateDeveloperAppSecretCommand): Promise<DeveloperAppWithSecret> {
    return this.apps.rotateSecret(userId, id);
  }
}

@CommandHandler(DeleteDeveloperAppCommand)
export class DeleteDeveloperAppHandler implements ICommandHandler<DeleteDeveloperAppCommand> {
  constructor(private readonly apps: DeveloperAppsService) {}
  execute({ userId, id }: DeleteDeveloperAppCommand): Promise<DeveloperApp> {
    return this.apps.remove(userId, id);
  }
}

@CommandHandler(SetOAuthClientStandingCommand)
export class SetOAuthClientStandingHandler implements ICommandHandler<SetOAuthClientStandingCommand> {
  constructor(
    private readonly clients: ClientsService,
    private readonly authorization: AuthorizationService,
  ) {}
  async execute({ id, action }: SetOAuthClientStandingCommand): Promise<OAuthClientView> {
    const view = await this.clients.setStanding(id, action);
    // Decision 0050: a suspension revokes everything the app holds (after the flag, so nothing new
    // is issued meanwhile); lifting it brings nothing back, people consent again.
    if (action === 'suspend') await this.authorization.revokeAppAccess(view.id, 'suspended');
    return view;
  }
}

export const DEVELOPER_APPS_HANDLERS = [
  DeveloperAppsHandler,
  CreateDeveloperAppHandler,
  UpdateDeveloperAppHandler,
  RotateDeveloperAppSecretHandler,
  DeleteDeveloperAppHandler,
  SetOAuthClientStandingHandler,
];
