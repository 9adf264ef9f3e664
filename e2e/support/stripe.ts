import Stripe from 'stripe';
import { randomBytes } from 'node:crypto';

/** The Stripe stand-in's coordinates, from scripts/run.mjs. */
export function stripeStandIn(): { url: string; secretKey: string; webhookSecret: string } {
  const stripe = (JSON.parse(process.env.E2E_STANDINS ?? '{}') as { stripe?: { url: string; secretKey: string; webhookSecret: string } }).stripe;
  if (!stripe) throw new Error('E2E_STANDINS has no Stripe stand-in: run the suite with `npm test -w e2e`.');
  return stripe;
}

/** A webhook body and a valid Stripe-Signature header, made with the `stripe` package's own helper. */
export function signedStripeEvent(type: string, object: Record<string, unknown>): { payload: string; signature: string } {
  const { secretKey, webhookSecret } = stripeStandIn();
  const event = {
    id: `evt_test_${randomBytes(10).toString('hex')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  };
  const payload = JSON.stringify(event);
  return { payload, signature: new Stripe(secretKey).webhooks.generateTestHeaderString({ payload, secret: webhookSecret }) };
}

/** Reads a Checkout Session from the stand-in (as Stripe's API would answer). */
export async function checkoutSession(sessionId: string): Promise<Record<string, unknown> & { id: string; client_reference_id: string }> {
  const { url, secretKey } = stripeStandIn();
  const response = await fetch(`${url}/v1/checkout/sessions/${sessionId}`, { headers: { authorization: `Bearer ${secretKey}` } });
  return (await response.json()) as Record<string, unknown> & { id: string; client_reference_id: string };
}
