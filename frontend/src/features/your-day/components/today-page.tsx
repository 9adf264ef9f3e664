import { useEffect, useId } from 'react';
import type { DayItem, Today } from '@life/contracts';
import { Link } from '@tanstack/react-router';
import { LoaderCircle, PlugZap, RotateCcw, Sunrise } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { reportError } from '@/lib/report-error';
import { displayNameOf } from '@/shared/services/utils/service-names';
import { ItemTitle, itemFacts, KindIcon } from '@/shared/your-day/components/day-item-row';
import { DayProblemNote, Freshness } from '@/shared/your-day/components/day-status';
import { useNow } from '@/shared/your-day/hooks/use-now';
import { formatClock, formatDayHeading, formatWhen, inTimeOrder } from '@/shared/your-day/utils/day-items';
import { useToday } from '../api/get-today';

/**
 * /today, "Tu día" (issue 19): one timeline for today merging the items of every connected service
 * (all-day ones first, then by time, in the person's zone and formats), how fresh each service's
 * data is and, calmly, why one could not be read. With nothing to show, it invites them to connect
 * a service on the dashboard.
 */
export function TodayPage() {
  const { t } = useTranslation();
  const today = useToday();

  useEffect(() => {
    if (today.error) reportError('Error cargando Tu día', today.error);
  }, [today.error]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6" data-testid="today-page">
      <h1 className="text-3xl font-bold tracking-tight text-foreground">{t('yourDay.today.title')}</h1>
      <p className="mt-2 text-muted-foreground">{t('yourDay.today.subtitle')}</p>

      {today.isPending ? (
        <div className="flex justify-center py-16" data-testid="today-loading">
          <Spinner label={t('yourDay.today.loading')} />
        </div>
      ) : today.isError ? (
        <Alert variant="warning" className="mt-8" data-testid="today-error">
          <p>{t('yourDay.today.loadError')}</p>
          <Button
            variant="outline"
            size="sm"
            className="mt-2 bg-background"
            disabled={today.isFetching}
            onClick={() => void today.refetch()}
            data-testid="today-retry"
          >
            {today.isFetching ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <RotateCcw aria-hidden="true" />}
            {t('dashboard.retry')}
          </Button>
        </Alert>
      ) : (
        <TodayContent today={today.data} />
      )}
    </div>
  );
}

function TodayContent({ today }: { today: Today }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const timelineId = useId();
  const sourcesId = useId();
  const items = inTimeOrder(today.items);
  const troubled = today.services.filter((service) => service.problem !== null);

  return (
    <>
      {troubled.length > 0 && (
        <div className="mt-8 grid gap-3">
          {troubled.map((service) => (
            <DayProblemNote key={service.service} problem={service.problem!} serviceName={displayNameOf(service.service, i18n)} />
          ))}
        </div>
      )}

      {items.length === 0 ? (
        <EmptyDay connected={today.services.length > 0} />
      ) : (
        <section aria-labelledby={timelineId} className="mt-8">
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <h2 id={timelineId} className="text-2xl font-semibold tracking-tight text-foreground first-letter:uppercase" data-testid="today-date">
              {formatDayHeading(today.date)}
            </h2>
            <p className="text-xs text-muted-foreground">{t('yourDay.today.timeZone', { zone: today.time_zone.replaceAll('_', ' ') })}</p>
          </div>
          <ol className="mt-4 divide-y divide-border rounded-3xl border bg-card px-4 shadow-soft sm:px-6" data-testid="today-timeline">
            {items.map((item) => (
              <TimelineItem key={`${item.service}:${item.id}`} item={item} now={now} />
            ))}
          </ol>
        </section>
      )}

      {today.services.length > 0 && (
        <section aria-labelledby={sourcesId} className="mt-10">
          <h2 id={sourcesId} className="text-lg font-semibold tracking-tight text-foreground">
            {t('yourDay.today.sources')}
          </h2>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="today-sources">
            {today.services.map((service) => (
              <li
                key={service.service}
                className="flex min-w-0 flex-col gap-0.5 rounded-2xl border bg-card px-4 py-3"
                data-testid="today-source"
                data-service={service.service}
              >
                <span className="truncate text-sm font-medium text-foreground">{displayNameOf(service.service, i18n)}</span>
                <Freshness fetchedAt={service.fetched_at} now={now} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/**
 * The time column: "Todo el día", "10:00–11:00" or "10:30", in the person's zone; a start on another
 * day (last night's sleep, begun yesterday) says its day: "27 nov, 23:34–6:59".
 */
function TimelineTime({ item, now }: { item: DayItem; now: number }) {
  const { t } = useTranslation();
  if (!item.at) return <span>{t('yourDay.time.allDay')}</span>;
  const start = formatWhen(item.at, now);
  return <time dateTime={item.at}>{item.end_at ? t('yourDay.time.range', { start, end: formatClock(item.end_at) }) : start}</time>;
}

function TimelineItem({ item, now }: { item: DayItem; now: number }) {
  const { t, i18n } = useTranslation();
  const facts = itemFacts(t, item);
  return (
    <li className="flex min-w-0 gap-3 py-3.5 sm:gap-4" data-testid="today-item" data-service={item.service} data-kind={item.kind}>
      <div className="w-[4.5rem] shrink-0 pt-1.5 text-xs font-medium text-muted-foreground tabular-nums sm:w-24 sm:text-sm">
        <TimelineTime item={item} now={now} />
      </div>
      <KindIcon item={item} />
      <div className="min-w-0 flex-1">
        <ItemTitle item={item} className="pt-1" />
        {item.subtitle && (
          <p className="truncate text-xs text-muted-foreground" title={item.subtitle}>
            {item.subtitle}
          </p>
        )}
        <p className="mt-0.5 text-xs text-muted-foreground">
          <span className="font-medium text-secondary-foreground" data-testid="today-item-service">
            {displayNameOf(item.service, i18n)}
          </span>
          {facts.length > 0 && ` · ${facts.join(' · ')}`}
        </p>
      </div>
    </li>
  );
}

/** Nothing for today: no service connected yet (invite them), or the connected ones bring nothing today. */
function EmptyDay({ connected }: { connected: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="mt-8 flex flex-col items-center rounded-3xl border border-dashed bg-card px-6 py-12 text-center" data-testid="today-empty">
      <Sunrise aria-hidden="true" className="size-10 text-primary" />
      <h2 className="mt-4 text-xl font-semibold tracking-tight text-foreground">
        {connected ? t('yourDay.today.empty.quietTitle') : t('yourDay.today.empty.title')}
      </h2>
      <p className="mt-2 max-w-md text-sm leading-relaxed text-muted-foreground">
        {connected ? t('yourDay.today.empty.quietBody') : t('yourDay.today.empty.body')}
      </p>
      <Button asChild className="mt-6">
        <Link to="/dashboard" data-testid="today-connect">
          <PlugZap aria-hidden="true" />
          {connected ? t('yourDay.today.empty.more') : t('yourDay.today.empty.action')}
        </Link>
      </Button>
    </div>
  );
}
