import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { BetaInviteListSchema, BetaInviteParamsSchema, BetaInviteSchema, CreateBetaInviteSchema } from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Audited } from '../audit/public/audited.decorator.js';
import { InviteToBetaCommand, ListBetaInvitesQuery, WithdrawBetaInviteCommand } from '../auth/public/commands.js';

@Controller('beta-invites')
@Roles('admin')
export class BetaInvitesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Contract({ summary: 'List beta invitations, newest first', tags: ['admin'], access: 'admin', response: BetaInviteListSchema })
  list() {
    return this.queries.execute(new ListBetaInvitesQuery());
  }

  @Post()
  @Audited({ action: 'admin.beta_invite_added', target: ({ body }) => ({ type: 'beta_invite', id: String(body.email) }) })
  @Contract({
    summary: 'Invite an e-mail to the beta',
    tags: ['admin'],
    access: 'admin',
    body: CreateBetaInviteSchema,
    response: BetaInviteSchema,
    successStatus: 201,
    errors: [409],
  })
  create(@Body() body: { email: string }, @CurrentUser() admin: AuthenticatedUser) {
    return this.commands.execute(new InviteToBetaCommand(body.email, admin.email));
  }

  @Delete(':email')
  @Audited({ action: 'admin.beta_invite_removed', target: ({ params }) => ({ type: 'beta_invite', id: params.email }) })
  @HttpCode(204)
  @Contract({ summary: 'Withdraw an invitation', tags: ['admin'], access: 'admin', params: BetaInviteParamsSchema, successStatus: 204, errors: [404] })
  async remove(@Param('email') email: string) {
    await this.commands.execute(new WithdrawBetaInviteCommand(email));
  }
}
