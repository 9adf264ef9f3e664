import { Body, Controller, Get, Patch } from '@nestjs/common';
import { UpdateProfileSchema, UserProfileSchema, type UpdateProfile } from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { UsersService } from './users.service.js';

@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  @Contract({ summary: 'The signed-in person', tags: ['users'], access: 'session', response: UserProfileSchema })
  me(@CurrentUser() user: AuthenticatedUser) {
    return { id: user.id, username: user.username, email: user.email, role: user.role };
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
    return this.users.updateUsername(user.id, body.username);
  }
}
