import Stripe from 'stripe';
import type { AppConfig } from '../../config/config.js';

export const STRIPE = Symbol('STRIPE');

/** The real `stripe` client; STRIPE_API_URL points it at another origin (the tests' stand-in). */
export function createStripe(config: AppConfig): Stripe | null {
  if (!config.stripe.secretKey) return null;
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
