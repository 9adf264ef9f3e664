import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { UserProfile } from '@life/contracts';
import { ApplyConfiguredRoleCommand, CreatePersonCommand, UpdateUsernameCommand } from '../public/commands.js';
import { IsConfiguredAdminQuery, PersonAccountQuery, PersonByEmailQuery, ProfileQuery, type PersonAccount } from '../public/queries.js';
import { toAccount, toProfile, UsersService } from '../users.service.js';
import { AwaitingEventPublisher } from '../../../core/events/awaiting-event-publisher.js';
import { PersonChangedEvent } from '../public/events.js';

@QueryHandler(PersonAccountQuery)
export class PersonAccountHandler implements IQueryHandler<PersonAccountQuery> {
  constructor(private readonly users: UsersService) {}
  async execute({ userId }: PersonAccountQuery): Promise<PersonAccount | null> {
    const user = await this.users.findById(userId);
    return user ? toAccount(user) : null;
  }
}

@QueryHandler(PersonByEmailQuery)
export class PersonByEmailHandler implements IQueryHandler<PersonByEmailQuery> {
  constructor(private readonly users: UsersService) {}
  async execute({ email }: PersonByEmailQuery): Promise<PersonAccount | null> {
    const user = await this.users.findByEmail(email);
    return user ? toAccount(user) : null;
  }
}

@QueryHandler(IsConfiguredAdminQuery)
export class IsConfiguredAdminHandler implements IQueryHandler<IsConfiguredAdminQuery> {
  constructor(private readonly users: UsersService) {}
  execute({ email }: IsConfiguredAdminQuery): Promise<boolean> {
    return Promise.resolve(this.users.isConfiguredAdmin(email));
  }
}

@QueryHandler(ProfileQuery)
export class ProfileHandler implements IQueryHandler<ProfileQuery> {
  execute({ person }: ProfileQuery): Promise<UserProfile> {
    return Promise.resolve(toProfile(person));
  }
}

@CommandHandler(CreatePersonCommand)
export class CreatePersonHandler implements ICommandHandler<CreatePersonCommand> {
  constructor(private readonly users: UsersService) {}
  async execute({ input }: CreatePersonCommand): Promise<PersonAccount> {
    return toAccount(await this.users.create(input));
  }
}

@CommandHandler(ApplyConfiguredRoleCommand)
export class ApplyConfiguredRoleHandler implements ICommandHandler<ApplyConfiguredRoleCommand> {
  constructor(
    private readonly users: UsersService,
    private readonly events: AwaitingEventPublisher,
  ) {}
  async execute({ userId }: ApplyConfiguredRoleCommand): Promise<PersonAccount> {
    const account = toAccount(await this.users.applyConfiguredRoleOf(userId));
    await this.events.publish(new PersonChangedEvent(userId));
    return account;
  }
}

@CommandHandler(UpdateUsernameCommand)
export class UpdateUsernameHandler implements ICommandHandler<UpdateUsernameCommand> {
  constructor(
    private readonly users: UsersService,
    private readonly events: AwaitingEventPublisher,
  ) {}
  async execute({ userId, username }: UpdateUsernameCommand): Promise<UserProfile> {
    const profile = await this.users.updateUsername(userId, username);
    await this.events.publish(new PersonChangedEvent(userId));
    return profile;
  }
}

export const USERS_PEOPLE_HANDLERS = [
  PersonAccountHandler,
  PersonByEmailHandler,
  IsConfiguredAdminHandler,
  ProfileHandler,
  CreatePersonHandler,
  ApplyConfiguredRoleHandler,
  UpdateUsernameHandler,
];
