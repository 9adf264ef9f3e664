import { useEffect, useId, useState } from 'react';
import type { DayView } from '@life/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { LoaderCircle, RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Switch } from '@/components/ui/switch';
import { apiErrorMessage } from '@/lib/api-client';
import { displayNameOf } from '@/shared/services/utils/service-names';
import { DAY_VIEWS_QUERY_KEY, POLL_EVERY_MS, POLL_FOR_MS, useRefreshDayView, useSetDayViewEnabled } from '../api/day-views';
import { useNow } from '../hooks/use-now';
import { DayProblemNote, Freshness } from './day-status';
import { DaySections } from './day-sections';

export interface DayViewPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The service key (`spotify`); kept by the caller while the panel animates closed. */
  service: string | null;
  view: DayView | null;
  /** Reconectar, for a view whose connection lost its access or lacks a permission. */
  onReconnect?: (service: string) => void;
}

/**
 * The detail panel of a service's view (issue 19): how fresh it is, 'Actualizar', 'Mostrar esta
 * vista', a calm note when the provider could not be read (the last data stays on screen), and the
 * view's sections.
 */
export function DayViewPanel({ open, onOpenChange, service, view, onReconnect }: DayViewPanelProps) {
  const { t, i18n } = useTranslation();
  const name = service ? displayNameOf(service, i18n) : '';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg" data-testid={service ? `day-panel-${service}` : undefined}>
        <DialogHeader>
          <DialogTitle>{name}</DialogTitle>
          <DialogDescription>{t('yourDay.panel.description', { service: name })}</DialogDescription>
        </DialogHeader>
        {service && view ? (
          <PanelBody key={service} view={view} name={name} onReconnect={onReconnect ? () => onReconnect(service) : undefined} />
        ) : (
          <p className="text-sm text-muted-foreground">{t('yourDay.panel.noView')}</p>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** 'Actualizar' waits for a snapshot newer than this one. */
interface Waiting {
  from: string | null;
}

function PanelBody({ view, name, onReconnect }: { view: DayView; name: string; onReconnect?: () => void }) {
  const { t } = useTranslation();
  const now = useNow();
  const switchId = useId();
  const offNoteId = useId();
  const queryClient = useQueryClient();
  const refresh = useRefreshDayView();
  const setEnabled = useSetDayViewEnabled();
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const off = view.state === 'off';
  const arrived = waiting !== null && (view.checked_at !== waiting.from || off);
  const refreshing = refresh.isPending || (waiting !== null && !arrived);

  // After 'Actualizar', ask for the views every few seconds until the new snapshot is there (a minute at most).
  useEffect(() => {
    if (!waiting || arrived) return;
    const poll = window.setInterval(() => void queryClient.refetchQueries({ queryKey: DAY_VIEWS_QUERY_KEY, type: 'active' }), POLL_EVERY_MS);
    const giveUp = window.setTimeout(() => setWaiting(null), POLL_FOR_MS);
    return () => {
      window.clearInterval(poll);
      window.clearTimeout(giveUp);
    };
  }, [waiting, arrived, queryClient]);

  function askRefresh() {
    setFailure(null);
    setNotice(null);
    // The worker's next try (a snapshot or a problem) moves `checked_at`: that is the answer to wait for.
    const from = view.checked_at;
    refresh.mutate(view.service, {
      // Not queued: fetched a moment ago (nothing newer to ask for yet), so nothing to wait for.
      onSuccess: (answer) => (answer.queued ? setWaiting({ from }) : setNotice(t('yourDay.upToDate'))),
      onError: (error) => setFailure(t('yourDay.errors.refresh', { message: apiErrorMessage(error) ?? t('yourDay.errors.tryAgain') })),
    });
  }

  function switchView(enabled: boolean) {
    setFailure(null);
    setWaiting(null);
    setEnabled.mutate(
      { service: view.service, enabled },
      { onError: (error) => setFailure(t('yourDay.errors.switch', { message: apiErrorMessage(error) ?? t('yourDay.errors.tryAgain') })) },
    );
  }

  const items = view.sections.reduce((count, section) => count + section.items.length, 0);

  return (
    <div className="flex flex-col gap-5" data-state={view.state} data-problem={view.problem ?? undefined}>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        {off ? <span /> : <Freshness fetchedAt={view.fetched_at} now={now} />}
        <Button variant="outline" size="sm" onClick={askRefresh} disabled={off || refreshing} aria-busy={refreshing || undefined} data-testid="day-refresh">
          {refreshing ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <RefreshCw aria-hidden="true" />}
          {refreshing ? t('yourDay.refreshing') : t('yourDay.refresh')}
        </Button>
      </div>

      <div className="rounded-2xl border bg-muted/40 px-4 py-3">
        <div className="flex items-center justify-between gap-3">
          <label htmlFor={switchId} className="min-w-0 text-sm font-medium text-foreground">
            {t('yourDay.viewSwitch')}
          </label>
          <Switch
            id={switchId}
            checked={!off}
            disabled={setEnabled.isPending}
            aria-describedby={offNoteId}
            onCheckedChange={switchView}
            data-testid="day-view-switch"
          />
        </div>
        <p id={offNoteId} className="mt-1 text-xs leading-relaxed text-muted-foreground" data-testid="day-view-switch-note">
          {off ? t('yourDay.offNote', { service: name }) : t('yourDay.onNote', { service: name })}
        </p>
      </div>

      {failure && (
        <Alert variant="error" data-testid="day-panel-error">
          {failure}
        </Alert>
      )}
      {notice && !failure && (
        <p role="status" className="text-sm text-muted-foreground" data-testid="day-panel-notice">
          {notice}
        </p>
      )}

      {!off && view.problem && <DayProblemNote problem={view.problem} serviceName={name} onReconnect={onReconnect} />}

      {!off && view.state === 'pending' && (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="day-pending">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-primary" />
          {t('yourDay.pending')}
        </p>
      )}

      {!off && items > 0 && <DaySections sections={view.sections} now={now} />}
      {!off && view.state === 'ready' && items === 0 && <p className="text-sm text-muted-foreground">{t('yourDay.nothingYet')}</p>}
    </div>
  );
}
