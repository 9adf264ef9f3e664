import type { DayItem } from '@life/contracts';
import type { TFunction } from 'i18next';
import { ExternalLink } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { codeLabel, formatClock, formatDuration, formatShortDay, formatWhen, KIND_ICONS } from '../utils/day-items';

/** Only https links open at the provider (what the server keeps); anything else is shown as text. */
export function safeUrl(url: string | null): string | null {
  return url && /^https:\/\//i.test(url) ? url : null;
}

/** When an item happened or runs: "10:00–11:00", "27 nov, 10:30", "Todo el día". */
export function itemWhen(t: TFunction, item: DayItem, now: number): string | null {
  if (item.at) {
    const start = formatWhen(item.at, now);
    return item.end_at ? t('yourDay.time.range', { start, end: formatClock(item.end_at) }) : start;
  }
  if (item.date) return item.kind === 'event' ? t('yourDay.time.allDay') : formatShortDay(item.date);
  return null;
}

/** The item's numbers and codes in words: "8.412 pasos", "7 h 32 min", "Nivel 70 · Guerrero", "Titán · Luz 1810". */
export function itemFacts(t: TFunction, item: DayItem): string[] {
  const facts: string[] = [];
  const { value } = item;
  switch (item.kind) {
    case 'steps':
      if (value !== null) facts.push(t('yourDay.values.steps', { count: value, steps: formatNumber(value) }));
      break;
    case 'sleep':
      if (value !== null) facts.push(formatDuration(value));
      break;
    case 'character': {
      if (value !== null) facts.push(t('yourDay.values.level', { level: formatNumber(value) }));
      const className = codeLabel(t, 'wowClasses', item.code);
      if (className) facts.push(className);
      break;
    }
    case 'guardian': {
      const className = codeLabel(t, 'destinyClasses', item.code);
      if (className && className !== item.title) facts.push(className);
      if (value !== null) facts.push(t('yourDay.values.light', { light: formatNumber(value) }));
      break;
    }
    case 'file': {
      const kind = codeLabel(t, 'fileKinds', item.code);
      if (kind) facts.push(kind);
      break;
    }
    case 'light':
      if (item.on && value !== null) facts.push(t('yourDay.values.brightness', { percent: formatNumber(value / 100, { style: 'percent' }) }));
      break;
    default:
      break;
  }
  return facts;
}

/** A small "Sonando" / "Ahora" badge for what is happening right now. */
export function LiveBadge({ item }: { item: DayItem }) {
  const { t } = useTranslation();
  if (!item.live) return null;
  return (
    <span className="ml-2 inline-flex items-center rounded-full bg-green-100 px-2 py-0.5 align-middle text-[0.6875rem] font-semibold text-green-800">
      {t(item.kind === 'track' ? 'yourDay.live.playing' : 'yourDay.live.now')}
    </span>
  );
}

/** The kind's icon in a round badge; the kind in words for screen readers goes with the title. */
export function KindIcon({ item, className }: { item: DayItem; className?: string }) {
  const Icon = KIND_ICONS[item.kind];
  return (
    <span
      aria-hidden="true"
      className={cn('flex size-8 shrink-0 items-center justify-center rounded-full bg-secondary text-secondary-foreground', className)}
      data-kind={item.kind}
    >
      <Icon className="size-4" />
    </span>
  );
}

/** The title, linked to the provider (a new tab) when the item has a web link. Long titles wrap, then stop at two lines. */
export function ItemTitle({ item, className }: { item: DayItem; className?: string }) {
  const { t } = useTranslation();
  const url = safeUrl(item.url);
  const kind = <span className="sr-only">{t(`yourDay.kinds.${item.kind}`)}: </span>;
  let title: ReactNode = item.title;
  if (url) {
    title = (
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        className="rounded-sm underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        data-testid="day-item-link"
      >
        {item.title} <span className="sr-only">({t('yourDay.newTab')})</span>
        <ExternalLink aria-hidden="true" className="inline size-3 align-[-1px] text-muted-foreground" />
      </a>
    );
  }
  return (
    <p className={cn('line-clamp-2 text-sm font-medium break-words text-foreground', className)}>
      {kind}
      {title}
      <LiveBadge item={item} />
    </p>
  );
}

/** One item of a view's section: icon, title (linked), second line, when, and its numbers in words. */
export function DayItemRow({ item, now }: { item: DayItem; now: number }) {
  const { t } = useTranslation();
  const details = [itemWhen(t, item, now), ...itemFacts(t, item)].filter((detail): detail is string => !!detail);
  return (
    <li className="flex min-w-0 gap-3 py-2.5" data-testid="day-item" data-kind={item.kind}>
      <KindIcon item={item} className="mt-0.5" />
      <div className="min-w-0 flex-1">
        <ItemTitle item={item} />
        {item.subtitle && (
          <p className="truncate text-xs text-muted-foreground" title={item.subtitle}>
            {item.subtitle}
          </p>
        )}
        {details.length > 0 && <p className="mt-0.5 text-xs text-muted-foreground">{details.join(' · ')}</p>}
      </div>
    </li>
  );
}
