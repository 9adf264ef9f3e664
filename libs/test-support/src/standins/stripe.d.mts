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
  signedEvent(type: string, object: Record<string, unknown>, extra?: { id?: string; created?: number; secret?: string }): SignedEvent;
  completeSession(sessionId: string): Record<string, unknown> & { id: string; customer: string; subscription: string };
  close(): Promise<void>;
}

export declare function startStripeStandIn(options: {
  secretKey: string;
  webhookSecret: string;
  failNext?: number;
  /** Where the checkout page's "Pagar" delivers a signed checkout.session.completed (the app's development Stripe). */
  webhookUrl?: string;
}): Promise<StripeStandIn>;
