import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type Stripe from 'stripe';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { REDIS } from '../../core/redis/redis.module.js';
import { SharedDevServer } from '../../core/util/shared-dev-server.js';

/** The development Stripe of the installation: where it answers and its made-up keys. */
interface DevStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
}

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
 * stand-in. The development Stripe is one for the whole installation (`SharedDevServer`): a
 * webhook its page sends reaches any web process, which verifies it with the same secret.
 */
@Injectable()
export class StripeGateway implements OnApplicationShutdown {
  private readonly logger = new Logger('Stripe');
  private client: Promise<Stripe | null> | undefined;
  /** The development Stripe's clients, by the stand-in's URL (another process's, if it started it). */
  private readonly devClients = new Map<string, Promise<Stripe>>();
  private readonly devStripe: SharedDevServer<DevStripe>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) redis: Redis,
  ) {
    this.devStripe = new SharedDevServer(
      redis,
      `${config.queuePrefix}:dev-stripe`,
      () => this.startDevStripe(),
      (dev) => dev.url,
    );
  }

  /** Payments can be taken: a key is set, or the development Stripe is on. */
  get enabled(): boolean {
    return !!this.config.stripe.secretKey || this.development;
  }

  /** Payments go to the development Stripe (no key, DEV_STRIPE). */
  get development(): boolean {
    return this.config.devStripe.enabled && !this.config.stripe.secretKey;
  }

  /** The secret webhooks are signed with (the development Stripe's, when it is the one in use). */
  async webhookSecret(): Promise<string | undefined> {
    if (!this.development) return this.config.stripe.webhookSecret;
    return (await this.dev())?.webhookSecret;
  }

  /** The Stripe client, or null when payments are off. */
  async stripe(): Promise<Stripe | null> {
    if (this.development) {
      const dev = await this.dev();
      if (!dev) return null;
      let client = this.devClients.get(dev.url);
      if (!client) {
        client = createStripe(dev.secretKey, dev.url);
        this.devClients.set(dev.url, client);
      }
      return client;
    }
    this.client ??= this.open().catch((error: unknown) => {
      this.client = undefined;
      throw error;
    });
    return this.client;
  }

  private async open(): Promise<Stripe | null> {
    const { secretKey, apiUrl } = this.config.stripe;
    return secretKey ? createStripe(secretKey, apiUrl) : null;
  }

  /** The installation's development Stripe, started here if no process runs one; null if it cannot start. */
  private async dev(): Promise<DevStripe | null> {
    try {
      return await this.devStripe.get();
    } catch (error) {
      this.logger.warn(
        `DEV_STRIPE is on but the Stripe stand-in could not start (${error instanceof Error ? error.message : String(error)}): install the development dependencies (npm install).`,
      );
      return null;
    }
  }

  private async startDevStripe(): Promise<{ value: DevStripe; close(): Promise<void> }> {
    // Made up at start, known only to the installation's processes (through Redis) and the stand-in.
    const keys = { secretKey: `sk_test_dev_${randomBytes(12).toString('hex')}`, webhookSecret: `whsec_dev_${randomBytes(24).toString('hex')}` };
    const { startStripeStandIn } = await import('@life/test-support/standins/stripe');
    const standIn = await startStripeStandIn({ ...keys, webhookUrl: `${this.config.appUrl}/api/stripe/webhook` });
    this.logger.warn(`Development Stripe at ${standIn.url} (DEV_STRIPE): a local stand-in, no real payment is taken.`);
    return { value: { url: standIn.url, ...keys }, close: () => standIn.close() };
  }

  onApplicationShutdown(): Promise<void> {
    return this.devStripe.close();
  }
}
