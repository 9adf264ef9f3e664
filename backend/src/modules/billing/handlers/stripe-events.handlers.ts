import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingEventsService } from '../billing-events.service.js';
import { ApplyStripeEventCommand } from '../public/commands.js';

@CommandHandler(ApplyStripeEventCommand)
export class ApplyStripeEventHandler implements ICommandHandler<ApplyStripeEventCommand> {
  constructor(private readonly events: BillingEventsService) {}
  execute({ eventId }: ApplyStripeEventCommand): Promise<boolean> {
    return this.events.process(eventId);
  }
}

/** What the worker roles dispatch (the stripe-events queue). */
export const BILLING_WORKER_HANDLERS = [ApplyStripeEventHandler];
