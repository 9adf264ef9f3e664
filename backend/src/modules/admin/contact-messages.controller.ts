import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ContactMessageListQuerySchema, ContactMessageListSchema, ContactMessageSchema, IdParamsSchema, type ContactMessageListFilter } from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ListContactMessagesQuery, MarkContactMessageHandledCommand } from '../contact/public/commands.js';

@Controller('api/contact-messages')
@Roles('admin')
export class ContactMessagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Contract({
    summary: 'Contact messages, newest first, optionally by subject or delivery status',
    tags: ['admin'],
    access: 'admin',
    query: ContactMessageListQuerySchema,
    response: ContactMessageListSchema,
  })
  list(@Query() query: ContactMessageListFilter) {
    return this.queries.execute(new ListContactMessagesQuery(query));
  }

  @Post(':id/handled')
  @HttpCode(200)
  @Contract({
    summary: 'Mark a contact message handled',
    tags: ['admin'],
    access: 'admin',
    params: IdParamsSchema,
    response: ContactMessageSchema,
    errors: [404],
  })
  markHandled(@Param('id') id: string, @CurrentUser() admin: AuthenticatedUser) {
    return this.commands.execute(new MarkContactMessageHandledCommand(id, admin.email));
  }
}
