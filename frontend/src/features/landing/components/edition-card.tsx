import { ShoppingCart, UsersRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import type { Edition } from '../api/get-editions';

export interface EditionCardProps {
  edition: Edition;
  /** Cart action. Billing wires this up later; until then the button does nothing. */
  onBuy?: (edition: Edition) => void;
  featured?: boolean;
}

export function EditionCard({ edition, onBuy, featured = false }: EditionCardProps) {
  const { t } = useTranslation();
  const key = `landing.editions.${edition.id}`;
  return (
    <li
      data-testid="edition-card"
      data-edition={edition.id}
      className={cn(
        'relative flex w-[300px] flex-col gap-5 rounded-3xl border p-7 shadow-soft transition-shadow hover:shadow-lift',
        featured ? 'border-transparent bg-foreground text-background' : 'bg-card text-card-foreground',
      )}
    >
      <div className="flex flex-col items-start gap-3">
        <h3 className="text-2xl font-semibold tracking-tight">{t(`${key}.name`)}</h3>
        <p className={cn('flex items-start gap-2 text-sm font-medium', featured ? 'text-[#fdb4a9]' : 'text-secondary-foreground')}>
          <UsersRound aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {/* Upper-case first letter for display only: the text stays as written in the locale. */}
          <span className="block first-letter:uppercase" data-testid="edition-limit">
            {t(`${key}.limit`)}
          </span>
        </p>
      </div>
      <p className={cn('flex-1 text-sm leading-relaxed', featured ? 'text-white/75' : 'text-muted-foreground')}>{t(`${key}.description`)}</p>
      <div className={cn('flex items-center justify-between gap-4 border-t pt-5', featured ? 'border-white/15' : 'border-border')}>
        <p className="text-3xl font-bold tracking-tight whitespace-nowrap" data-testid="edition-price">
          {t('landing.editions.price', { amount: edition.monthlyPriceEur })}
        </p>
        <Button
          size="icon"
          variant={featured ? 'secondary' : 'default'}
          aria-label={t('landing.editions.buy')}
          data-testid="edition-buy"
          onClick={() => onBuy?.(edition)}
        >
          <ShoppingCart aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}
