import { Controller, Get, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { CheckoutResponseSchema, EditionsSchema, InvoicesSchema, MembershipAnswerSchema, PortalSessionSchema } from '@life/contracts';
import type { FastifyRequest } from 'fastify';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { Public } from '../../core/http/public.decorator.js';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ReceiveStripeEventCommand, StartCheckoutCommand } from './public/commands.js';
import { EditionsQuery, MembershipQuery } from './public/queries.js';
import { InvoicesQuery, OpenBillingPortalCommand } from './public/portal.js';

@Controller()
export class BillingController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('api/billing/editions')
  @Public()
  @Contract({ summary: 'The three lifetime editions with seats left and which one is on sale', tags: ['billing'], access: 'public', response: EditionsSchema })
  editions() {
    return this.queries.execute(new EditionsQuery());
  }

  @Get('api/billing/membership')
  @Contract({ summary: "The signed-in person's lifetime membership, if any", tags: ['billing'], access: 'session', response: MembershipAnswerSchema })
  membership(@CurrentUser() user: AuthenticatedUser) {
    return this.queries.execute(new MembershipQuery(user.id));
  }

  @Get('api/billing/invoices')
  @Contract({
    summary: "The member's own Stripe invoices (newest first) with Stripe's PDF and hosted links",
    tags: ['billing'],
    access: 'session',
    response: InvoicesSchema,
    errors: [404, 409, 502, 503],
  })
  invoices(@CurrentUser() user: AuthenticatedUser) {
    return this.queries.execute(new InvoicesQuery(user.id));
  }

  @Post('api/billing/portal')
  @HttpCode(200)
  @Contract({
    summary: "Open Stripe's customer portal for the member's own customer (payment method, invoices, cancelling); it returns to the profile",
    tags: ['billing'],
    access: 'session',
    response: PortalSessionSchema,
    errors: [404, 409, 502, 503],
  })
  portal(@CurrentUser() user: AuthenticatedUser) {
    return this.commands.execute(new OpenBillingPortalCommand(user.id));
  }

  @Post('api/stripe/create-checkout-session')
  @HttpCode(200)
  @Contract({
    summary: 'Reserve a seat of the edition on sale and open a Stripe Checkout',
    tags: ['billing'],
    access: 'session',
    response: CheckoutResponseSchema,
    errors: [409, 502, 503],
  })
  checkout(@CurrentUser() user: AuthenticatedUser) {
    return this.commands.execute(new StartCheckoutCommand(user.id, user.email));
  }

  @Post('api/stripe/webhook')
  @Public()
  @HttpCode(200)
  @Contract({ summary: 'Stripe webhooks (signature checked on the raw body)', tags: ['billing'], access: 'public', errors: [400, 503] })
  async webhook(@Req() request: FastifyRequest & { rawBody?: Buffer }, @Headers('stripe-signature') signature: string | undefined) {
    // The raw body travels as it came: the signature is checked on exactly these bytes.
    await this.commands.execute(new ReceiveStripeEventCommand(request.rawBody, signature));
    return { received: true };
  }
}
