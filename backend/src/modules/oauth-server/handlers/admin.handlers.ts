import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { OAuthClientView, OAuthClientWithSecret } from '@life/contracts';
import { ClientsService } from '../clients.service.js';
import {
  CreateOAuthClientCommand,
  DeleteOAuthClientCommand,
  ListOAuthClientsQuery,
  RotateOAuthClientSecretCommand,
  UpdateOAuthClientCommand,
} from '../public/commands.js';

@QueryHandler(ListOAuthClientsQuery)
export class ListOAuthClientsHandler implements IQueryHandler<ListOAuthClientsQuery> {
  constructor(private readonly clients: ClientsService) {}
  execute(): Promise<OAuthClientView[]> {
    return this.clients.list();
  }
}

@CommandHandler(CreateOAuthClientCommand)
export class CreateOAuthClientHandler implements ICommandHandler<CreateOAuthClientCommand> {
  constructor(private readonly clients: ClientsService) {}
  execute({ input, ownerId }: CreateOAuthClientCommand): Promise<OAuthClientWithSecret> {
    return this.clients.create(input, ownerId);
  }
}

@CommandHandler(UpdateOAuthClientCommand)
export class UpdateOAuthClientHandler implements ICommandHandler<UpdateOAuthClientCommand> {
  constructor(private readonly clients: ClientsService) {}
  execute({ id, input }: UpdateOAuthClientCommand): Promise<OAuthClientView> {
    return this.clients.update(id, input);
  }
}

@CommandHandler(RotateOAuthClientSecretCommand)
export class RotateOAuthClientSecretHandler implements ICommandHandler<RotateOAuthClientSecretCommand> {
  constructor(private readonly clients: ClientsService) {}
  execute({ id }: RotateOAuthClientSecretCommand): Promise<OAuthClientWithSecret> {
    return this.clients.rotateSecret(id);
  }
}

@CommandHandler(DeleteOAuthClientCommand)
export class DeleteOAuthClientHandler implements ICommandHandler<DeleteOAuthClientCommand> {
  constructor(private readonly clients: ClientsService) {}
  execute({ id }: DeleteOAuthClientCommand): Promise<void> {
    return this.clients.remove(id);
  }
}

export const OAUTH_ADMIN_HANDLERS = [
  ListOAuthClientsHandler,
  CreateOAuthClientHandler,
  UpdateOAuthClientHandler,
  RotateOAuthClientSecretHandler,
  DeleteOAuthClientHandler,
];
