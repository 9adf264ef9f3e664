import { startStripeStandIn, type StripeStandIn } from '@life/test-support/standins/stripe';
import { startTestApp, type TestApp } from './test-app.js';

/**
 * The Stripe stand-in and an app (by default web and worker in one process) that sells through it, with its
 * own keys (`sk_test_life_<name>`, `whsec_life_<name>`) and `env` on top (edition limits, sweeps).
 */
export async function startBillingApp(
  name: string,
  env: Record<string, string> = {},
  role: 'web' | 'all' = 'all',
): Promise<{ stripe: StripeStandIn; t: TestApp; secretKey: string; webhookSecret: string }> {
  const secretKey = `sk_test_life_${name}`;
  const webhookSecret = `whsec_life_${name}`;
  const stripe = await startStripeStandIn({ secretKey, webhookSecret });
  const t = await startTestApp({
    role,
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: stripe.url, ...env },
  });
  return { stripe, t, secretKey, webhookSecret };
}
