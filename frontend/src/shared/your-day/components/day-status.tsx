import type { DayProblem, DayView } from '@life/contracts';
import { Clock, LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { CONNECT_BUTTON_CLASS } from '@/shared/services/components/connect-button-class';
import { formatAgo, headlineText, KIND_ICONS } from '../utils/day-items';

/** "Actualizado hace 3 min" (the exact time as a tooltip), or that nothing was fetched yet. */
export function Freshness({ fetchedAt, now, className }: { fetchedAt: string | null; now: number; className?: string }) {
  const { t } = useTranslation();
  return (
    <p className={cn('flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground', className)} data-testid="day-freshness">
      <Clock aria-hidden="true" className="size-3.5 shrink-0" />
      {fetchedAt ? (
        <time dateTime={fetchedAt} title={formatDateTime(fetchedAt)}>
          {t('yourDay.freshness.updated', { ago: formatAgo(fetchedAt, now) })}
        </time>
      ) : (
        <span>{t('yourDay.freshness.never')}</span>
      )}
    </p>
  );
}

/**
 * Why the last fetch brought nothing new, said calmly (a polite status, not an alert): the last
 * data stays on screen. A lost access or a missing permission offers Reconectar where it can.
 */
export function DayProblemNote({
  problem,
  serviceName,
  onReconnect,
  className,
}: {
  problem: DayProblem;
  serviceName: string;
  onReconnect?: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const reconnect = onReconnect && (problem === 'needs_reconnect' || problem === 'missing_scope');
  return (
    <Alert variant="warning" role="status" className={className} data-testid="day-problem" data-problem={problem}>
      <p>{t(`yourDay.problems.${problem}`, { service: serviceName })}</p>
      {reconnect && (
        <Button size="sm" className={cn(CONNECT_BUTTON_CLASS, 'mt-2')} onClick={onReconnect} data-testid="day-reconnect">
          <RefreshCw aria-hidden="true" />
          {t('services.reconnect')}
        </Button>
      )}
    </Alert>
  );
}

/**
 * The card's one line for a view: its headline ("Sonando ahora: …", "8.412 pasos hoy"), or what the
 * view is doing (being prepared, switched off). Cut to one line; the whole text is its tooltip.
 */
export function DayHeadline({ view, className }: { view: DayView; className?: string }) {
  const { t } = useTranslation();
  const { headline } = view;
  let text: string;
  let Icon = headline ? KIND_ICONS[headline.kind] : null;
  if (view.state === 'off') text = t('yourDay.card.off');
  else if (view.state === 'pending' && !headline) {
    text = t('yourDay.pending');
    Icon = LoaderCircle;
  } else if (headline) text = headlineText(t, headline);
  else text = t('yourDay.card.noHeadline');
  if (view.problem && view.state !== 'off') Icon = TriangleAlert;
  return (
    <p
      className={cn('flex w-full min-w-0 items-center gap-1.5 text-xs', view.state === 'off' ? 'text-muted-foreground' : 'text-foreground', className)}
      title={text}
      data-testid={`day-headline-${view.service}`}
      data-state={view.state}
    >
      {Icon && (
        <Icon
          aria-hidden="true"
          className={cn('size-3.5 shrink-0', Icon === LoaderCircle && 'animate-spin', Icon === TriangleAlert ? 'text-amber-700' : 'text-primary')}
        />
      )}
      <span className="min-w-0 truncate">
        {view.problem && view.state !== 'off' && <span className="sr-only">{t('yourDay.card.problem')} </span>}
        {text}
      </span>
    </p>
  );
}
