export interface SignedEvent {
  event: { id: string; type: string; created: number; data: { object: Record<string, unknown> } };
  payload: string;
  signature: string;
}

/** A delivered event: `ok` when the app answered 2xx. */
export interface Delivery extends SignedEvent {
  ok: boolean;
  status: string;
}

export interface StripeStandIn {
  url: string;
  sessions: Map<string, Record<string, unknown> & { id: string; url: string; client_reference_id: string | null; amount_total: number }>;
  requests: { method: string; path: string; body: Record<string, string>; idempotencyKey?: string }[];
  /** Subscription ids cancelled through DELETE /v1/subscriptions/:id, in order. */
  cancelled: string[];
  failNextCheckouts(count?: number): void;
  signedEvent(
    type: string,
    object: Record<string, unknown>,
    extra?: { id?: string; created?: number; secret?: string; previous?: Record<string, unknown>; timestamp?: number },
  ): SignedEvent;
  completeSession(
    sessionId: string,
    how?: { paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required' },
  ): Record<string, unknown> & { id: string; customer: string; subscription: string; invoice: string; payment_status: string };
  /** Subscriptions created by completed checkouts, by id (Stripe's payload shape). */
  subscriptions: Map<
    string,
    Record<string, unknown> & { id: string; customer: string; status: string; cancel_at: number | null; cancel_at_period_end: boolean }
  >;
  /** Invoices by id (Stripe's payload shape: number, total, total_taxes, invoice_pdf, hosted_invoice_url; the first one with `payments`). */
  invoices: Map<
    string,
    Record<string, unknown> & { id: string; customer: string; number: string; total: number; invoice_pdf: string; hosted_invoice_url: string }
  >;
  /** Where subscription events (portal, period end, erasure's cancel) are delivered: the app's webhook. */
  setEventsUrl(url: string): void;
  /** The member cancels in the portal (at the period's end): delivers the signed customer.subscription.updated. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<Delivery>;
  /** The paid period ran out: the subscription ends and the signed customer.subscription.deleted is delivered. */
  endSubscription(subscriptionId: string): Promise<Delivery>;
  /** A renewal: a new paid invoice of the subscription. */
  issueInvoice(subscriptionId: string): Record<string, unknown> & { id: string; number: string };
  /** A later-settling payment settled or failed: the session as in checkout.session.async_payment_succeeded / _failed. */
  settlePayment(sessionId: string, succeeded: boolean): Record<string, unknown> & { id: string };
  /** The charge of a completed session. */
  chargeOf(sessionId: string): Record<string, unknown> & { id: string; amount: number; amount_refunded: number; refunded: boolean };
  /** Refunds (part of) a session's charge: the charge as in charge.refunded. */
  refundCharge(sessionId: string, amount?: number): Record<string, unknown> & { id: string; amount_refunded: number; refunded: boolean };
  /** A dispute of a session's charge, as in charge.dispute.created / closed. */
  dispute(sessionId: string, how?: { status?: string; reason?: string; id?: string }): Record<string, unknown> & { id: string; charge: string };
  charges: Map<string, Record<string, unknown>>;
  /** Refunds created through POST /v1/refunds, in order. */
  refunds: (Record<string, unknown> & { id: string; amount: number; payment_intent: string })[];
  close(): Promise<void>;
}

export declare function startStripeStandIn(options: {
  secretKey: string;
  webhookSecret: string;
  failNext?: number;
  /** Where the checkout page's "Pagar" delivers a signed checkout.session.completed (the app's development Stripe). */
  webhookUrl?: string;
  /** Where subscription events (the portal's cancel/renew, erasure's cancel) are delivered; default webhookUrl. */
  eventsUrl?: string;
}): Promise<StripeStandIn>;
