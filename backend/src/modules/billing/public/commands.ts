import { Command } from '@nestjs/cqrs';
import type { CheckoutResponse } from '@life/contracts';

/** Reserve a seat of the edition on sale and open a Stripe Checkout (or reuse the person's open one). */
export class StartCheckoutCommand extends Command<CheckoutResponse> {
  constructor(
    readonly userId: string,
    readonly email: string,
  ) {
    super();
  }
}

/** A Stripe webhook: the signature is checked on the raw body, then the event is stored in the inbox and queued. */
export class ReceiveStripeEventCommand extends Command<void> {
  constructor(
    readonly rawBody: Buffer | undefined,
    readonly signature: string | undefined,
  ) {
    super();
  }
}

/** Worker: applies one stored inbox event exactly once; true when applied now, false when it had been already. */
export class ApplyStripeEventCommand extends Command<boolean> {
  constructor(readonly eventId: string) {
    super();
  }
}

/** Admin (Salud): a Stripe event that gave up gets its attempts again and is queued now. */
export class RetryStripeEventCommand extends Command<void> {
  constructor(readonly eventId: string) {
    super();
  }
}

/** Admin (Salud): a Stripe event that gave up is kept, never applied, and no longer needs attention. */
export class DismissStripeEventCommand extends Command<void> {
  constructor(readonly eventId: string) {
    super();
  }
}
