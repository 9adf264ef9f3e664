import { Body, Controller, Get, Patch } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { UpdateProfileSchema, UserProfileSchema, type UpdateProfile } from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { UpdateUsernameCommand } from './public/commands.js';
import { ProfileQuery } from './public/queries.js';

@Controller('api/users')
export class UsersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('me')
  @Contract({ summary: 'The signed-in person', tags: ['users'], access: 'session', response: UserProfileSchema })
  me(@CurrentUser() user: AuthenticatedUser) {
    return this.queries.execute(new ProfileQuery(user));
  }

  @Patch('me')
  @Contract({
    summary: 'Change the username (3 to 32 characters, unique)',
    tags: ['users'],
    access: 'session',
    body: UpdateProfileSchema,
    response: UserProfileSchema,
    errors: [409],
  })
  update(@CurrentUser() user: AuthenticatedUser, @Body() body: UpdateProfile) {
    return this.commands.execute(new UpdateUsernameCommand(user.id, body.username));
  }
}
