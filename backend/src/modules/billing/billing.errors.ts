import { AppError } from '../../core/http/app-error.js';
import type { Text } from '../../core/i18n/messages.js';

export enum BillingErrorCode {
  PaymentsNotConfigured = 'payments_not_configured',
  AlreadyMember = 'already_member',
  SoldOut = 'sold_out',
  PaymentProviderError = 'payment_provider_error',
  InvalidSignature = 'invalid_signature',
  NotAMember = 'not_a_member',
  NoStripeCustomer = 'no_stripe_customer',
  EventNotFound = 'event_not_found',
  EventNotFailed = 'event_not_failed',
}

const STATUS: Record<BillingErrorCode, number> = {
  [BillingErrorCode.PaymentsNotConfigured]: 503,
  [BillingErrorCode.AlreadyMember]: 409,
  [BillingErrorCode.SoldOut]: 409,
  [BillingErrorCode.PaymentProviderError]: 502,
  [BillingErrorCode.InvalidSignature]: 400,
  [BillingErrorCode.NotAMember]: 404,
  [BillingErrorCode.NoStripeCustomer]: 409,
  [BillingErrorCode.EventNotFound]: 404,
  [BillingErrorCode.EventNotFailed]: 409,
};

export class BillingError extends AppError {
  constructor(code: BillingErrorCode, message: Text) {
    super(STATUS[code], code, message);
  }
}

/** An event whose prerequisite has not arrived yet (e.g. a subscription update before its checkout): retried later. */
export class EventNotReadyError extends Error {}
