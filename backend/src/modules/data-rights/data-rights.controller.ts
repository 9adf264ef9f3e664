import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { DataExportParamsSchema, DataExportSchema, EraseAccountSchema, ErasureAcceptedSchema, type EraseAccount } from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { RequestErasureCommand, RequestExportCommand } from './public/commands.js';
import { ExportFileQuery, ExportStatusQuery } from './public/queries.js';

/** The person's data rights on the profile: 'Descargar mis datos' and 'Eliminar mi cuenta'. */
@Controller('api/users/me')
export class DataRightsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('export')
  @HttpCode(202)
  @Contract({
    summary: 'Start a JSON export of everything we hold about me (or answer the one already under way)',
    tags: ['data rights'],
    access: 'session',
    response: DataExportSchema,
    successStatus: 202,
    errors: [429],
  })
  requestExport(@CurrentUser() user: AuthenticatedUser) {
    return this.commands.execute(new RequestExportCommand(user.id));
  }

  @Get('export/:id')
  @Contract({
    summary: 'The state of one of my exports',
    tags: ['data rights'],
    access: 'session',
    params: DataExportParamsSchema,
    response: DataExportSchema,
    errors: [404],
  })
  exportStatus(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.queries.execute(new ExportStatusQuery(user.id, id));
  }

  @Get('export/:id/download')
  @Contract({
    summary: 'Download a ready export: the JSON file, as an attachment (only for its owner, until it expires)',
    tags: ['data rights'],
    access: 'session',
    params: DataExportParamsSchema,
    produces: 'The export file (application/json, Content-Disposition: attachment)',
    errors: [404, 409, 410],
  })
  async download(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const file = await this.queries.execute(new ExportFileQuery(user.id, id));
    void reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('cache-control', 'no-store');
    return file.content;
  }

  @Post('erase')
  @HttpCode(202)
  @Contract({
    summary: 'Erase my account: signs me out everywhere now, then revokes and deletes everything in the background',
    tags: ['data rights'],
    access: 'session',
    body: EraseAccountSchema,
    response: ErasureAcceptedSchema,
    successStatus: 202,
  })
  erase(@CurrentUser() user: AuthenticatedUser, @Body() body: EraseAccount) {
    return this.commands.execute(new RequestErasureCommand({ id: user.id, username: user.username }, body.confirm));
  }
}
