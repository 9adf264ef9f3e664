import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openLoginDialog } from '@/lib/login-dialog';
import { useSession } from '@/lib/session';
import { checkoutBlockFor, useEditions, type Edition, type EditionId } from '../api/get-editions';
import { checkoutErrorMessage, useCheckout } from '../api/start-checkout';
import { EditionCard, type EditionCardMessage } from './edition-card';

/**
 * The cart: a card that cannot be bought (payments off, sold out, not on sale) is disabled and says
 * why before any click (checkoutBlockFor, the profile's rule too); signed out it opens the login
 * dialog; signed in it starts the checkout (the server sells the edition on sale). While the live
 * data is not known (loading, unreachable) the server decides.
 */
export function EditionsSection() {
  const { t } = useTranslation();
  const { data } = useEditions();
  const { editions } = data;
  const { isSignedIn } = useSession();
  const checkout = useCheckout();
  const [selected, setSelected] = useState<EditionId | null>(null);
  const featuredId = editions.find((edition) => edition.onSale)?.id ?? editions[0]?.id;
  const busyId = checkout.isPending || checkout.data === 'redirecting' ? (selected ?? undefined) : undefined;

  function handleBuy(edition: Edition) {
    if (busyId || checkoutBlockFor(data, edition)) return;
    checkout.reset();
    setSelected(edition.id);
    if (!isSignedIn) return openLoginDialog();
    checkout.mutate();
  }

  function messageFor(id: EditionId): EditionCardMessage | undefined {
    if (selected !== id) return undefined;
    if (checkout.isError) return { tone: 'error', text: checkoutErrorMessage(checkout.error, t) };
    if (checkout.data === 'not_configured') return { tone: 'error', text: t('billing.errors.notConfigured') };
    if (checkout.data === 'redirecting') return { tone: 'info', text: t('billing.redirecting') };
    return undefined;
  }

  return (
    <section aria-labelledby="editions-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <h2 id="editions-title" className="text-3xl font-semibold tracking-tight text-foreground sm:text-4xl">
          {t('landing.editions.title')}
        </h2>
        <p className="mt-3 text-base text-muted-foreground">{t('landing.editions.subtitle')}</p>
      </div>
      <ul className="mt-10 flex flex-wrap justify-center gap-6">
        {editions.map((edition) => (
          <EditionCard
            key={edition.id}
            edition={edition}
            onBuy={handleBuy}
            featured={edition.id === featuredId}
            block={checkoutBlockFor(data, edition)}
            pending={edition.id === busyId}
            message={messageFor(edition.id)}
          />
        ))}
      </ul>
    </section>
  );
}
