export interface SignedEvent {
  event: { id: string; type: string; created: number; data: { object: Record<string, unknown> } };
  payload: string;
  signature: string;
}

export interface StripeStandIn {
  url: string;
  sessions: Map<string, Record<string, unknown> & { id: string; url: string; client_reference_id: string | null; amount_total: number }>;
  requests: { method: string; path: string; body: Record<string, string>; idempotencyKey?: string }[];
  /** Subscription ids cancelled through DELETE /v1/subscriptions/:id, in order. */
  cancelled: string[];
  failNextCheckouts(count?: number): void;
  signedEvent(type: string, object: Record<string, unknown>, extra?: { id?: string; created?: number; secret?: string; timestamp?: number }): SignedEvent;
  completeSession(
    sessionId: string,
    how?: { paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required' },
  ): Record<string, unknown> & { id: string; customer: string; subscription: string; invoice: string; payment_status: string };
  /** A later-settling payment settled or failed: the session as in checkout.session.async_payment_succeeded / _failed. */
  settlePayment(sessionId: string, succeeded: boolean): Record<string, unknown> & { id: string };
  /** The charge of a completed session. */
  chargeOf(sessionId: string): Record<string, unknown> & { id: string; amount: number; amount_refunded: number; refunded: boolean };
  /** Refunds (part of) a session's charge: the charge as in charge.refunded. */
  refundCharge(sessionId: string, amount?: number): Record<string, unknown> & { id: string; amount_refunded: number; refunded: boolean };
  /** A dispute of a session's charge, as in charge.dispute.created / closed. */
  dispute(sessionId: string, how?: { status?: string; reason?: string; id?: string }): Record<string, unknown> & { id: string; charge: string };
  charges: Map<string, Record<string, unknown>>;
  invoices: Map<string, Record<string, unknown>>;
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
}): Promise<StripeStandIn>;
