import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { Invoice, Invoices, PortalSession } from '@life/contracts';
import type Stripe from 'stripe';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { msg } from '../../core/i18n/messages.js';
import { RateLimitService, type RateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { BillingError, BillingErrorCode } from './billing.errors.js';
import { Membership } from './entities/membership.entity.js';
import { StripeGateway } from './stripe.client.js';

/**
 * Each portal or invoice request is a call to Stripe with the company's key: one person looping
 * must not spend the account's Stripe rate limit that everyone's checkouts need (429 past it).
 */
export const PORTAL_RATE = { name: 'billing:portal', points: 20, durationSeconds: 60 } as const;

/** How many invoices one answer lists (newest first); a monthly membership reaches it after two years. */
export const INVOICES_PAGE = 24;

/** Stripe's invoice as the member sees it: the amounts and Stripe's own links, nothing else. */
export function toInvoiceDto(invoice: Stripe.Invoice): Invoice {
  const raw = invoice as Stripe.Invoice & { tax?: number | null; total_taxes?: { amount: number }[] | null };
  const tax = typeof raw.tax === 'number' ? raw.tax : raw.total_taxes ? raw.total_taxes.reduce((sum, item) => sum + item.amount, 0) : null;
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? null,
    date: new Date(invoice.created * 1000).toISOString(),
    amount_cents: invoice.total,
    tax_cents: tax,
    currency: invoice.currency,
    status: invoice.status ?? null,
    pdf_url: invoice.invoice_pdf ?? null,
    hosted_url: invoice.hosted_invoice_url ?? null,
  };
}

/**
 * The member's own Stripe: the customer portal (payment method, invoices, cancelling) and the
 * invoice list (decision 0047, 0048). Always the Stripe customer written on the member's own
 * membership row, never one named by the request.
 */
@Injectable()
export class BillingPortalService {
  private readonly logger = new Logger('BillingPortal');
  private readonly rate: RateLimit;

  constructor(
    private readonly em: EntityManager,
    private readonly gateway: StripeGateway,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    rateLimits: RateLimitService,
  ) {
    this.rate = rateLimits.create(PORTAL_RATE);
  }

  /** The member's Stripe client and customer id, or the clear reason why there is none. */
  private async customerOf(userId: string): Promise<{ stripe: Stripe; customer: string }> {
    await this.rate.consume(userId);
    const stripe = await this.gateway.stripe();
    if (!stripe) throw new BillingError(BillingErrorCode.PaymentsNotConfigured, msg('billing.notConfigured'));
    const membership = await this.em.fork().findOne(Membership, { user: userId });
    if (!membership || membership.userErasedAt) throw new BillingError(BillingErrorCode.NotAMember, msg('billing.notAMember'));
    if (!membership.stripeCustomerId) throw new BillingError(BillingErrorCode.NoStripeCustomer, msg('billing.noStripeCustomer'));
    return { stripe, customer: membership.stripeCustomerId };
  }

  private providerError(what: string, error: unknown): BillingError {
    this.logger.warn(`Stripe refused ${what}: ${error instanceof Error ? error.message : String(error)}`);
    return new BillingError(BillingErrorCode.PaymentProviderError, msg('billing.providerUnavailable'));
  }

  /** A customer portal session for the member's own customer; it comes back to the profile. */
  async portal(userId: string): Promise<PortalSession> {
    const { stripe, customer } = await this.customerOf(userId);
    try {
      const session = await stripe.billingPortal.sessions.create({ customer, return_url: `${this.config.appUrl}/profile?portal=return` });
      return { url: session.url };
    } catch (error) {
      throw this.providerError('a portal session', error);
    }
  }

  /** The member's own invoices, newest first, with Stripe's download links. */
  async invoices(userId: string): Promise<Invoices> {
    const { stripe, customer } = await this.customerOf(userId);
    let page: Stripe.ApiList<Stripe.Invoice>;
    try {
      page = await stripe.invoices.list({ customer, limit: INVOICES_PAGE });
    } catch (error) {
      throw this.providerError('the invoice list', error);
    }
    // Stripe filtered by customer; checked again so a wrong answer can never show another's invoice.
    const own = page.data.filter((invoice) => (typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id) === customer);
    return { invoices: own.map(toInvoiceDto), has_more: page.has_more };
  }
}
