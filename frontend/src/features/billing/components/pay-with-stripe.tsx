import { useId } from 'react';
import { CreditCard, LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CHECKOUT_BLOCK_TEXT, checkoutBlockFor, useEditions } from '../api/get-editions';
import { useMembership } from '../api/get-membership';
import { checkoutErrorMessage, useCheckout } from '../api/start-checkout';

/**
 * 'Pagar con Stripe' (spec section 2, Profile): the shared checkout. Members do not see it (former
 * members, whose subscription ended, do). With
 * payments off, or nothing on sale, it is disabled and says why, by the landing's carts' rule
 * (checkoutBlockFor, from what the API says).
 */
export function PayWithStripe() {
  const { t } = useTranslation();
  const reasonId = useId();
  const membership = useMembership();
  const editions = useEditions();
  const checkout = useCheckout();
  // A former member whose subscription ended (seat freed, decision 0048) may buy again.
  if (membership.isPending || (membership.data && membership.data.status !== 'cancelled')) return null;

  const redirecting = checkout.data === 'redirecting';
  const busy = checkout.isPending || redirecting;
  const block = checkoutBlockFor(editions.data);
  const error = checkout.isError ? checkoutErrorMessage(checkout.error, t) : checkout.data === 'not_configured' ? t('billing.errors.notConfigured') : undefined;

  return (
    <>
      <Button
        variant="outline"
        data-testid="pay-with-stripe"
        disabled={busy || !!block}
        aria-busy={busy || undefined}
        aria-describedby={block ? reasonId : undefined}
        onClick={() => checkout.mutate()}
      >
        {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <CreditCard aria-hidden="true" />}
        {redirecting ? t('billing.redirecting') : t('billing.payWithStripe')}
      </Button>
      {block && (
        <p id={reasonId} className="basis-full text-sm text-muted-foreground" data-testid="pay-with-stripe-unavailable" data-reason={block}>
          {t(CHECKOUT_BLOCK_TEXT[block])}
        </p>
      )}
      {error && (
        <Alert variant="error" className="basis-full" data-testid="checkout-error">
          {error}
        </Alert>
      )}
    </>
  );
}
