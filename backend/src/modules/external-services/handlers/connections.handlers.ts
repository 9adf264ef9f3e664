import { CommandHandler, EventBus, QueryBus, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ExternalServiceDto } from '@life/contracts';
import { SignInProvidersQuery } from '../../auth/public/queries.js';
import { CatalogService, loginProviderOf, withoutAppConfiguration } from '../catalog.service.js';
import { ConnectionsService } from '../connections.service.js';
import { CredentialsService } from '../credentials.service.js';
import {
  DisconnectServiceCommand,
  FinishConnectionCommand,
  SaveOwnCredentialsCommand,
  StartConnectionCommand,
  type AuthUrl,
  type DisconnectResult,
  type FinishedConnection,
  type OwnCredentials,
} from '../public/commands.js';
import { ServiceConnectedEvent, ServiceDisconnectedEvent } from '../public/events.js';
import { ListPersonServicesQuery, OwnCredentialsQuery } from '../public/queries.js';

/**
 * The dashboard's list. A login-type row (githublogin) is never connected through the catalog: it is
 * "connected" when the person signs in with that provider (a linked identity), which auth knows.
 */
@QueryHandler(ListPersonServicesQuery)
export class ListPersonServicesHandler implements IQueryHandler<ListPersonServicesQuery> {
  constructor(
    private readonly catalog: CatalogService,
    private readonly queries: QueryBus,
  ) {}
  async execute({ userId, asAdmin }: ListPersonServicesQuery): Promise<ExternalServiceDto[]> {
    const [services, providers] = await Promise.all([this.catalog.listFor(userId), this.queries.execute(new SignInProvidersQuery(userId))]);
    const signedInWith = new Set(providers);
    return services.map((row) => {
      const service = asAdmin ? row : withoutAppConfiguration(row);
      const provider = loginProviderOf(service);
      return provider ? { ...service, connected: signedInWith.has(provider), needs_reconnect: false } : service;
    });
  }
}

@CommandHandler(StartConnectionCommand)
export class StartConnectionHandler implements ICommandHandler<StartConnectionCommand> {
  constructor(private readonly connections: ConnectionsService) {}
  execute({ userId, serviceName, region }: StartConnectionCommand): Promise<AuthUrl> {
    return this.connections.authUrl(userId, serviceName, region);
  }
}

@CommandHandler(FinishConnectionCommand)
export class FinishConnectionHandler implements ICommandHandler<FinishConnectionCommand> {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly events: EventBus,
  ) {}
  async execute({ user, serviceName, code, state, language }: FinishConnectionCommand): Promise<FinishedConnection> {
    const connection = await this.connections.finish(user, serviceName, code, state, language);
    await this.events.publish(new ServiceConnectedEvent(user.id, serviceName));
    return {
      service: serviceName,
      connected: true,
      account_name: connection.accountName ?? null,
      user: { id: user.id, username: user.username, email: user.email, role: user.role },
    };
  }
}

@CommandHandler(DisconnectServiceCommand)
export class DisconnectServiceHandler implements ICommandHandler<DisconnectServiceCommand> {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly events: EventBus,
  ) {}
  async execute({ userId, serviceName }: DisconnectServiceCommand): Promise<DisconnectResult> {
    const result = await this.connections.disconnect(userId, serviceName);
    await this.events.publish(new ServiceDisconnectedEvent(userId, serviceName));
    return result;
  }
}

@QueryHandler(OwnCredentialsQuery)
export class OwnCredentialsHandler implements IQueryHandler<OwnCredentialsQuery> {
  constructor(private readonly credentials: CredentialsService) {}
  execute({ userId, serviceName }: OwnCredentialsQuery): Promise<OwnCredentials> {
    return this.credentials.get(userId, serviceName);
  }
}

@CommandHandler(SaveOwnCredentialsCommand)
export class SaveOwnCredentialsHandler implements ICommandHandler<SaveOwnCredentialsCommand> {
  constructor(private readonly credentials: CredentialsService) {}
  execute({ userId, input }: SaveOwnCredentialsCommand): Promise<OwnCredentials> {
    return this.credentials.save(userId, input);
  }
}

/** The dashboard's and the credentials dialog's handlers (every role: they need no worker). */
export const CONNECTIONS_HANDLERS = [
  ListPersonServicesHandler,
  StartConnectionHandler,
  FinishConnectionHandler,
  DisconnectServiceHandler,
  OwnCredentialsHandler,
  SaveOwnCredentialsHandler,
];
