import { CreditCard, LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useMembership } from '../api/get-membership';
import { checkoutErrorMessage, useCheckout } from '../api/start-checkout';

/** 'Pagar con Stripe' (spec section 2, Profile): the shared checkout. Members do not see it. */
export function PayWithStripe() {
  const { t } = useTranslation();
  const membership = useMembership();
  const checkout = useCheckout();
  if (membership.isPending || membership.data) return null;

  const redirecting = checkout.data === 'redirecting';
  const busy = checkout.isPending || redirecting;
  const error = checkout.isError ? checkoutErrorMessage(checkout.error, t) : checkout.data === 'not_configured' ? t('billing.errors.notConfigured') : undefined;

  return (
    <>
      <Button variant="outline" data-testid="pay-with-stripe" disabled={busy} aria-busy={busy || undefined} onClick={() => checkout.mutate()}>
        {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <CreditCard aria-hidden="true" />}
        {redirecting ? t('billing.redirecting') : t('billing.payWithStripe')}
      </Button>
      {error && (
        <Alert variant="error" className="basis-full" data-testid="checkout-error">
          {error}
        </Alert>
      )}
    </>
  );
}
