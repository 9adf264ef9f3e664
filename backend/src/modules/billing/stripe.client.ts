import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type Stripe from 'stripe';
import type { StripeStandIn } from '@life/test-support/standins/stripe';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';

/** The real `stripe` client for a key; `apiUrl` points it at another origin (a stand-in). */
async function createStripe(secretKey: string, apiUrl: string | undefined): Promise<Stripe> {
  const { default: Stripe } = await import('stripe');
  const api = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(api
      ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol.replace(':', '') as 'http' | 'https' }
      : {}),
  });
}

/**
 * Where payments go. With `STRIPE_SECRET_KEY`: Stripe (or `STRIPE_API_URL`, the tests' stand-in).
 * Without it, in development (DEV_STRIPE, decision 0020): the development Stripe, the tests' own
 * Stripe stand-in started on loopback on the first checkout, whose page is labelled as such and
 * whose "Pagar" delivers a signed `checkout.session.completed` to our real webhook endpoint.
 * Otherwise payments are off. The `stripe` package (about 1 MB of code) and the stand-in are
 * loaded on first use only; production (the config check refuses DEV_STRIPE=on) never loads the
 * stand-in.
 */
@Injectable()
export class StripeGateway implements OnApplicationShutdown {
  private readonly logger = new Logger('Stripe');
  private client: Promise<Stripe | null> | undefined;
  private standIn: Promise<StripeStandIn> | undefined;
  /** The development Stripe's keys: made up at start, known only to this process and its stand-in. */
  private readonly devKeys = { secretKey: `sk_test_dev_${randomBytes(12).toString('hex')}`, webhookSecret: `whsec_dev_${randomBytes(24).toString('hex')}` };

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Payments can be taken: a key is set, or the development Stripe is on. */
  get enabled(): boolean {
    return !!this.config.stripe.secretKey || this.development;
  }

  /** Payments go to the development Stripe (no key, DEV_STRIPE). */
  get development(): boolean {
    return this.config.devStripe.enabled && !this.config.stripe.secretKey;
  }

  /** The secret webhooks are signed with. */
  get webhookSecret(): string | undefined {
    return this.development ? this.devKeys.webhookSecret : this.config.stripe.webhookSecret;
  }

  /** The Stripe client, or null when payments are off. */
  stripe(): Promise<Stripe | null> {
    this.client ??= this.open().catch((error: unknown) => {
      this.client = undefined;
      throw error;
    });
    return this.client;
  }

  private async open(): Promise<Stripe | null> {
    const { secretKey, apiUrl } = this.config.stripe;
    if (secretKey) return createStripe(secretKey, apiUrl);
    if (!this.development) return null;
    this.standIn ??= import('@life/test-support/standins/stripe').then(({ startStripeStandIn }) =>
      startStripeStandIn({ ...this.devKeys, webhookUrl: `${this.config.appUrl}/api/stripe/webhook` }),
    );
    let standIn: StripeStandIn;
    try {
      standIn = await this.standIn;
    } catch (error) {
      this.standIn = undefined;
      this.logger.warn(
        `DEV_STRIPE is on but the Stripe stand-in could not start (${error instanceof Error ? error.message : String(error)}): install the development dependencies (npm install).`,
      );
      return null;
    }
    this.logger.warn(`Development Stripe at ${standIn.url} (DEV_STRIPE): a local stand-in, no real payment is taken.`);
    return createStripe(this.devKeys.secretKey, standIn.url);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.standIn) await (await this.standIn.catch(() => undefined))?.close();
  }
}
