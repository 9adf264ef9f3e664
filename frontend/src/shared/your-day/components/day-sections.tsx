import { useId, useState } from 'react';
import type { DayItem, DaySection } from '@life/contracts';
import { Lightbulb, LightbulbOff, LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Switch } from '@/components/ui/switch';
import { apiErrorMessage } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useSwitchHueLight } from '../api/day-views';
import { formatShortDay } from '../utils/day-items';
import { DayItemRow, itemFacts } from './day-item-row';

/** A view's sections, each under its title (h3): items, the 7-day steps chart, Hue's lights by room. */
export function DaySections({ sections, now }: { sections: readonly DaySection[]; now: number }) {
  return (
    <div className="flex flex-col gap-6">
      {sections.map((section) => (
        <DaySectionBlock key={section.key} section={section} now={now} />
      ))}
    </div>
  );
}

function DaySectionBlock({ section, now }: { section: DaySection; now: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  let body;
  if (section.items.length === 0) body = <p className="text-sm text-muted-foreground">{t('yourDay.sectionEmpty')}</p>;
  else if (section.key === 'steps_week') body = <StepsChart items={section.items} />;
  else if (section.key === 'lights') body = <LightsList items={section.items} />;
  else
    body = (
      <ul className="divide-y divide-border">
        {section.items.map((item) => (
          <DayItemRow key={item.id} item={item} now={now} />
        ))}
      </ul>
    );
  return (
    <section aria-labelledby={headingId} data-testid={`day-section-${section.key}`}>
      <h3 id={headingId} className="mb-1.5 text-sm font-semibold tracking-tight text-foreground">
        {t(`yourDay.sections.${section.key}`)}
      </h3>
      {body}
    </section>
  );
}

/** Steps per day as bars, each with its number in words (the chart is the list: nothing is only drawn). */
export function StepsChart({ items }: { items: readonly DayItem[] }) {
  const { t } = useTranslation();
  const days = items.filter((item) => item.value !== null);
  const most = Math.max(1, ...days.map((item) => item.value ?? 0));
  return (
    <ol className="grid gap-2 pt-1" data-testid="day-steps-chart">
      {days.map((item) => {
        const steps = item.value ?? 0;
        return (
          <li key={item.id} className="grid grid-cols-[4.5rem_minmax(0,1fr)_6.5rem] items-center gap-2 text-xs">
            <span className="truncate text-muted-foreground">{item.date ? formatShortDay(item.date) : item.title}</span>
            <span aria-hidden="true" className="h-3 overflow-hidden rounded-full bg-muted">
              <span className="block h-full rounded-full bg-primary" style={{ width: `${Math.round((steps / most) * 100)}%` }} />
            </span>
            <span className="text-right font-medium text-foreground tabular-nums">
              {t('yourDay.values.steps', { count: steps, steps: formatNumber(steps) })}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** Rooms in the order their first light came. */
function byRoom(items: readonly DayItem[]): [string, DayItem[]][] {
  const rooms = new Map<string, DayItem[]>();
  for (const item of items) {
    const room = item.subtitle ?? '';
    rooms.set(room, [...(rooms.get(room) ?? []), item]);
  }
  return [...rooms];
}

/**
 * Hue's lights by room, each with a switch. The switch shows the state the bridge confirmed: a click
 * asks the server, which switches the light and reads it back; until then the switch waits, and on a
 * failure it stays where the light really is and the reason is shown.
 */
export function LightsList({ items }: { items: readonly DayItem[] }) {
  const { t } = useTranslation();
  const hue = useSwitchHueLight();
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState<string | null>(null);
  const switching = hue.isPending ? hue.variables.lightId : null;

  function toggle(light: DayItem, on: boolean) {
    setFailure(null);
    setConfirmed(null);
    hue.mutate(
      { lightId: light.id, on },
      {
        onSuccess: (view) => {
          const now = view.sections.flatMap((section) => section.items).find((item) => item.kind === 'light' && item.id === light.id);
          if (now) setConfirmed(t(now.on ? 'yourDay.lights.confirmedOn' : 'yourDay.lights.confirmedOff', { light: now.title }));
        },
        onError: (error) => {
          const message = apiErrorMessage(error);
          const what = t(on ? 'yourDay.lights.errorOn' : 'yourDay.lights.errorOff', { light: light.title });
          setFailure(message ? `${what} ${message}` : `${what} ${t('yourDay.lights.tryAgain')}`);
        },
      },
    );
  }

  return (
    <div className="flex flex-col gap-3">
      {failure && (
        <Alert variant="error" data-testid="day-light-error">
          {failure}
        </Alert>
      )}
      {byRoom(items).map(([room, lights]) => (
        <div key={room || '-'} className="rounded-2xl border bg-card">
          {room && <h4 className="border-b px-4 py-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{room}</h4>}
          <ul className="divide-y divide-border">
            {lights.map((light) => (
              <LightRow key={light.id} light={light} switching={switching === light.id} disabled={switching !== null} onToggle={toggle} />
            ))}
          </ul>
        </div>
      ))}
      <p role="status" className="sr-only" data-testid="day-light-confirmed">
        {confirmed}
      </p>
    </div>
  );
}

function LightRow({
  light,
  switching,
  disabled,
  onToggle,
}: {
  light: DayItem;
  switching: boolean;
  disabled: boolean;
  onToggle: (light: DayItem, on: boolean) => void;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const on = light.on === true;
  const Icon = on ? Lightbulb : LightbulbOff;
  const facts = itemFacts(t, light);
  return (
    <li className="flex min-w-0 items-center gap-3 px-4 py-2.5" data-testid="day-light" data-on={String(on)}>
      <Icon aria-hidden="true" className={cn('size-4 shrink-0', on ? 'text-amber-600' : 'text-muted-foreground')} />
      <div className="min-w-0 flex-1">
        <p id={labelId} className="truncate text-sm font-medium text-foreground" title={light.title}>
          {light.title}
        </p>
        <p className="text-xs text-muted-foreground">{[t(on ? 'yourDay.lights.on' : 'yourDay.lights.off'), ...facts].join(' · ')}</p>
      </div>
      {switching && <LoaderCircle aria-hidden="true" className="size-4 shrink-0 animate-spin text-muted-foreground" />}
      <Switch
        checked={on}
        disabled={disabled}
        aria-busy={switching || undefined}
        aria-label={light.subtitle ? t('yourDay.lights.switchInRoom', { light: light.title, room: light.subtitle }) : light.title}
        onCheckedChange={(next) => onToggle(light, next)}
        data-testid={`day-light-${light.id}`}
      />
    </li>
  );
}
