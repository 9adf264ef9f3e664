import { useId } from 'react';
import { LoaderCircle, ShoppingCart, UsersRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { formatNumber, formatPrice } from '@/lib/format';
import { cn } from '@/lib/utils';
import { CHECKOUT_BLOCK_TEXT, type CheckoutBlock, type Edition } from '../api/get-editions';

export interface EditionCardMessage {
  text: string;
  tone: 'info' | 'error';
}

export interface EditionCardProps {
  edition: Edition;
  /** Cart action. */
  onBuy?: (edition: Edition) => void;
  featured?: boolean;
  /** Why this edition cannot be bought now (checkoutBlockFor): the cart is disabled and says so. */
  block?: CheckoutBlock | null;
  /** A checkout started from this card is running (or the browser is leaving for it). */
  pending?: boolean;
  /** Why the cart did not go on, or how it is going, shown under the price. */
  message?: EditionCardMessage;
}

export function EditionCard({ edition, onBuy, featured = false, block = null, pending = false, message }: EditionCardProps) {
  const { t } = useTranslation();
  const reasonId = useId();
  const key = `landing.editions.${edition.id}`;
  const soldOut = edition.seatsLeft === 0;
  // Grouped like the limit texts ("1.000"), which plain Spanish formatting would not do below 10.000.
  const seats = edition.seatsLeft === undefined ? undefined : formatNumber(edition.seatsLeft, { useGrouping: 'always' });
  // Each cart names its edition ("Comprar Élite"); a disabled one says why beside it (and in its description and tooltip).
  const cartLabel = t('landing.editions.buyEdition', { edition: t(`${key}.name`) });
  const reason = block ? t(CHECKOUT_BLOCK_TEXT[block]) : undefined;
  return (
    <li
      data-testid="edition-card"
      data-edition={edition.id}
      data-on-sale={edition.onSale === undefined ? undefined : String(edition.onSale)}
      className={cn(
        'relative flex w-[300px] flex-col gap-5 rounded-3xl border p-7 shadow-soft transition-shadow hover:shadow-lift',
        featured ? 'border-transparent bg-foreground text-background' : 'bg-card text-card-foreground',
      )}
    >
      <div className="flex flex-col items-start gap-3">
        <div className="flex w-full items-center justify-between gap-3">
          <h3 className="text-2xl font-semibold tracking-tight">{t(`${key}.name`)}</h3>
          {soldOut ? (
            <span
              className={cn('rounded-full px-2.5 py-1 text-xs font-semibold', featured ? 'bg-white/15 text-white' : 'bg-muted text-muted-foreground')}
              data-testid="edition-sold-out"
            >
              {t('billing.soldOut')}
            </span>
          ) : (
            edition.onSale && (
              <span
                className={cn(
                  'rounded-full px-2.5 py-1 text-xs font-semibold',
                  featured ? 'bg-[#fdb4a9] text-foreground' : 'bg-secondary text-secondary-foreground',
                )}
                data-testid="edition-on-sale"
              >
                {t('billing.onSale')}
              </span>
            )
          )}
        </div>
        <p className={cn('flex items-start gap-2 text-sm font-medium', featured ? 'text-[#fdb4a9]' : 'text-secondary-foreground')}>
          <UsersRound aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {/* Upper-case first letter for display only: the text stays as written in the locale. */}
          <span className="block first-letter:uppercase" data-testid="edition-limit">
            {t(`${key}.limit`)}
          </span>
        </p>
        {seats !== undefined && (
          <p className={cn('text-sm', featured ? 'text-white/75' : 'text-muted-foreground')} data-testid="edition-seats">
            {t('billing.seatsLeft', { seats })}
          </p>
        )}
      </div>
      <p className={cn('flex-1 text-sm leading-relaxed', featured ? 'text-white/75' : 'text-muted-foreground')}>{t(`${key}.description`)}</p>
      <div className={cn('flex items-center justify-between gap-4 border-t pt-5', featured ? 'border-white/15' : 'border-border')}>
        <p className="text-3xl font-bold tracking-tight whitespace-nowrap" data-testid="edition-price">
          {t('landing.editions.price', { amount: formatPrice(edition.monthlyPriceEur, 'EUR') })}
        </p>
        <Button
          size="icon"
          variant={featured ? 'secondary' : 'default'}
          aria-label={cartLabel}
          aria-describedby={reason ? reasonId : undefined}
          title={reason ?? cartLabel}
          data-testid="edition-buy"
          disabled={!!block || pending}
          aria-busy={pending || undefined}
          onClick={() => onBuy?.(edition)}
        >
          {pending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <ShoppingCart aria-hidden="true" />}
        </Button>
      </div>
      {reason && (
        <p
          id={reasonId}
          className={cn('-mt-2 text-xs leading-relaxed', featured ? 'text-white/75' : 'text-muted-foreground')}
          data-testid="edition-unavailable"
          data-reason={block}
        >
          {reason}
        </p>
      )}
      <p
        role={message?.tone === 'error' ? 'alert' : 'status'}
        className={cn(
          '-mt-2 text-xs leading-relaxed empty:hidden',
          message?.tone === 'error' ? (featured ? 'text-[#fdb4a9]' : 'text-red-700') : featured ? 'text-white/75' : 'text-muted-foreground',
        )}
        data-testid="edition-message"
      >
        {message?.text}
      </p>
    </li>
  );
}
