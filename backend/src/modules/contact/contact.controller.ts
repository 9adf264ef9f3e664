import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ContactAcceptedSchema, ContactMessageInputSchema, type ContactAccepted, type ContactMessageSubmission } from '@life/contracts';
import { Contract } from '../../core/http/contract.js';
import { Public } from '../../core/http/public.decorator.js';
import { bearerToken } from '../../core/http/bearer-token.js';
import { CommandBus } from '@nestjs/cqrs';
import { SendContactMessageCommand } from './public/commands.js';

@Controller('api/contact')
export class ContactController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @Public()
  @HttpCode(202)
  @Contract({
    summary: 'Send a message to the company (the contact page). Limited per IP and per e-mail.',
    tags: ['contact'],
    access: 'public',
    body: ContactMessageInputSchema,
    response: ContactAcceptedSchema,
    successStatus: 202,
    errors: [429],
  })
  send(@Body() body: ContactMessageSubmission, @Req() request: FastifyRequest): Promise<ContactAccepted> {
    return this.commands.execute(new SendContactMessageCommand(body, request.ip, bearerToken(request.headers.authorization)));
  }
}
