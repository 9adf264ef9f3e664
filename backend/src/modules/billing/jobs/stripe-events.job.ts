/** Queue of verified Stripe events waiting for their effect (the inbox row is the source of truth). */
export const STRIPE_EVENTS_QUEUE = 'stripe-events';

export interface StripeEventJob {
  eventId: string;
}
