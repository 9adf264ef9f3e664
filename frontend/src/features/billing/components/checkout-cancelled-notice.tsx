import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';

/** Back from Stripe without paying (`/?checkout=cancelled`): a calm word that nothing was charged. */
export function CheckoutCancelledNotice({ onDismiss }: { onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      variant="info"
      data-testid="checkout-cancelled"
      className="shadow-soft"
      action={
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('billing.dismiss')}
          data-testid="checkout-cancelled-dismiss"
          className="-my-1 -mr-2 inline-flex size-8 shrink-0 cursor-pointer items-center justify-center rounded-full transition-colors hover:bg-foreground/10"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      }
    >
      <p className="font-medium">{t('billing.checkoutCancelled')}</p>
    </Alert>
  );
}
