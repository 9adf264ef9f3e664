import type Stripe from 'stripe';
import type { AppConfig } from '../../config/config.js';

export const STRIPE = Symbol('STRIPE');

/**
 * The real `stripe` client; STRIPE_API_URL points it at another origin (the tests' stand-in).
 * The package (about 1 MB of code) is loaded only when payments are configured.
 */
export async function createStripe(config: AppConfig): Promise<Stripe | null> {
  if (!config.stripe.secretKey) return null;
  const { default: Stripe } = await import('stripe');
  const api = config.stripe.apiUrl ? new URL(config.stripe.apiUrl) : undefined;
  return new Stripe(config.stripe.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(api
      ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol.replace(':', '') as 'http' | 'https' }
      : {}),
  });
}
