import { useEffect, useId, useRef, useState } from 'react';
import { isDayService, type ExternalServiceDto } from '@life/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ExternalLink, LoaderCircle, RotateCcw, Search, X } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';
import { SERVICES_QUERY_KEY, useServices } from '@/shared/services/api/get-services';
import { useStartConnection } from '@/shared/services/api/start-connection';
import { ServiceEditDialog } from '@/shared/services/components/service-edit-dialog';
import { displayNameOf } from '@/shared/services/utils/service-names';
import { filterServices } from '@/shared/services/utils/service-rules';
import { useDayViews, YOUR_DAY_QUERY_KEY } from '@/shared/your-day/api/day-views';
import { DayViewPanel } from '@/shared/your-day/components/day-view-panel';
import { useDisconnectFlow, type FinishAt } from '../hooks/use-disconnect-flow';
import { CredentialsDialog } from './credentials-dialog';
import { ServiceTile } from './service-tile';
import { reportError } from '@/lib/report-error';

/**
 * /dashboard (spec section 2): the privacy promise, then the services as 210 × 340 cards with a
 * search by name. The edit button opens the service edit dialog for admins and the person's own
 * credentials dialog for everyone else (docs/decisions/0009-dashboard-edit-button.md).
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const searchId = useId();
  const { isAdmin } = useSession();
  const queryClient = useQueryClient();
  const services = useServices();
  const { connect, pending: connecting } = useStartConnection();
  const disconnect = useDisconnectFlow();
  const [query, setQuery] = useState('');
  // Keep the service while a dialog animates closed, so its title does not flip.
  const [editing, setEditing] = useState<{ open: boolean; service: ExternalServiceDto | null }>({ open: false, service: null });
  const [viewing, setViewing] = useState<{ open: boolean; service: string | null }>({ open: false, service: null });

  useEffect(() => {
    // Spec section 8: logged ('Error cargando servicios'); the spinner stops and the list stays empty.
    // Issue 20: and a calm message says so, with a way to try again.
    if (services.error) reportError('Error cargando servicios', services.error);
  }, [services.error]);

  const all = services.data ?? [];
  // "Tu día" (issue 19): the connected services' views, read from their last snapshots.
  const withViews = all
    .filter((service) => service.connected && isDayService(service.service_name))
    .map((service) => service.service_name)
    .sort()
    .join(',');
  const views = useDayViews({ enabled: withViews !== '' });
  const viewOf = new Map((views.data?.views ?? []).map((view) => [view.service, view]));
  // A service connected or disconnected here (credentials, Desconectar): read the views again.
  const readFor = useRef<string | null>(null);
  useEffect(() => {
    if (readFor.current && readFor.current !== withViews) void queryClient.invalidateQueries({ queryKey: YOUR_DAY_QUERY_KEY });
    readFor.current = withViews;
  }, [withViews, queryClient]);

  useEffect(() => {
    if (views.error) reportError('Error cargando las vistas de Tu día', views.error);
  }, [views.error]);

  const shown = filterServices(all, query, (name) => displayNameOf(name, i18n));
  // Connections that broke (a refused refresh, a Battle.net token that expired): said above the cards too.
  const broken = all.filter((service) => service.needs_reconnect && !service.connected);
  const closeEditor = (open: boolean) => setEditing((current) => ({ ...current, open }));

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-foreground">{t('dashboard.title')}</h1>

      <Alert variant="warning" role="note" className="mt-6" data-testid="privacy-banner">
        <p className="font-semibold">{t('dashboard.privacy.title')}</p>
        <p className="mt-1">{t('dashboard.privacy.body')}</p>
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
          {/* The profile's 'Tus datos' section and the policy's "what we store" heading. */}
          <Link to="/profile" hash="tus-datos" className="font-medium underline underline-offset-4" data-testid="privacy-banner-profile">
            {t('dataRights.banner.manage')}
          </Link>
          <Link to="/privacy-policy" hash="que-guardamos" className="font-medium underline underline-offset-4" data-testid="privacy-banner-policy">
            {t('dataRights.banner.policy')}
          </Link>
        </p>
      </Alert>

      <section aria-labelledby={`${searchId}-heading`} className="mt-10">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <h2 id={`${searchId}-heading`} className="text-2xl font-semibold tracking-tight text-foreground">
            {t('dashboard.servicesTitle')}
          </h2>
          <div className="relative w-full sm:max-w-xs">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              id={searchId}
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={t('dashboard.search')}
              aria-label={t('dashboard.search')}
              autoComplete="off"
              spellCheck={false}
              className="pl-10"
              data-testid="service-search"
            />
          </div>
        </div>

        {broken.length > 0 && (
          <Alert variant="error" role="status" className="mt-6" data-testid="services-broken">
            <p className="font-semibold">{t('dashboard.broken.title')}</p>
            <p className="mt-1">{t('dashboard.broken.body', { services: broken.map((service) => displayNameOf(service.service_name, i18n)).join(', ') })}</p>
          </Alert>
        )}

        {disconnect.finishAt && <FinishAtBanner finishAt={disconnect.finishAt} onDismiss={disconnect.dismissFinishAt} />}

        {services.isError && (
          <Alert variant="warning" className="mt-6" data-testid="services-load-error">
            <p>{t('dashboard.loadError')}</p>
            <Button
              variant="outline"
              size="sm"
              className="mt-2 bg-background"
              disabled={services.isFetching}
              onClick={() => void services.refetch()}
              data-testid="services-retry"
            >
              {services.isFetching ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <RotateCcw aria-hidden="true" />}
              {t('dashboard.retry')}
            </Button>
          </Alert>
        )}

        {views.isError && (
          <Alert variant="warning" className="mt-6" data-testid="day-views-error">
            <p>{t('yourDay.loadError')}</p>
            <Button
              variant="outline"
              size="sm"
              className="mt-2 bg-background"
              disabled={views.isFetching}
              onClick={() => void views.refetch()}
              data-testid="day-views-retry"
            >
              {views.isFetching ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <RotateCcw aria-hidden="true" />}
              {t('dashboard.retry')}
            </Button>
          </Alert>
        )}

        {services.isPending ? (
          <div className="flex justify-center py-16" data-testid="services-loading">
            <Spinner label={t('dashboard.loading')} />
          </div>
        ) : all.length > 0 && shown.length === 0 ? (
          <p className="py-16 text-center text-sm text-muted-foreground" data-testid="services-no-match">
            {t('dashboard.noMatch')}
          </p>
        ) : (
          // Fixed 210 px columns (spec section 9): five fit the page at 1280 px; on wide screens they spread to both edges.
          // Below 480 px one column of compact cards (full width, as tall as their content).
          <ul
            className="mt-6 grid grid-cols-1 justify-center gap-x-3 gap-y-3 min-[480px]:grid-cols-[repeat(auto-fill,210px)] min-[480px]:gap-y-4 lg:justify-between"
            data-testid="services-grid"
          >
            {shown.map((service) => (
              <li key={service.id}>
                <ServiceTile
                  service={service}
                  onEdit={(target) => setEditing({ open: true, service: target })}
                  onConnect={(target, region) => void connect(target.service_name, region)}
                  onDisconnect={(target) => disconnect.start(target.service_name)}
                  connecting={connecting === service.service_name}
                  disconnecting={disconnect.pending === service.service_name}
                  dayView={viewOf.get(service.service_name) ?? null}
                  onOpenDayView={(target) => setViewing({ open: true, service: target.service_name })}
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      <DayViewPanel
        open={viewing.open}
        onOpenChange={(open) => setViewing((current) => ({ ...current, open }))}
        service={viewing.service}
        view={viewing.service ? (viewOf.get(viewing.service) ?? null) : null}
        onReconnect={(name) => {
          const target = all.find((service) => service.service_name === name);
          void connect(name, target?.region ?? undefined);
        }}
      />

      {isAdmin ? (
        <ServiceEditDialog open={editing.open} onOpenChange={closeEditor} service={editing.service} />
      ) : (
        <CredentialsDialog
          open={editing.open}
          onOpenChange={closeEditor}
          service={editing.service}
          onSaved={() => void queryClient.invalidateQueries({ queryKey: SERVICES_QUERY_KEY })}
        />
      )}
    </div>
  );
}

/** After Desconectar, when the provider could not be told: where to remove Life's access by hand. */
function FinishAtBanner({ finishAt, onDismiss }: { finishAt: FinishAt; onDismiss: () => void }) {
  const { t } = useTranslation();
  const safe = /^https?:\/\//i.test(finishAt.url);
  return (
    <Alert
      variant="warning"
      className="mt-6"
      data-testid="finish-at"
      action={
        <Button variant="ghost" size="icon" className="-my-1.5 -mr-2 size-8 [&_svg]:size-4" aria-label={t('services.dismiss')} onClick={onDismiss}>
          <X aria-hidden="true" />
        </Button>
      }
    >
      <Trans
        i18nKey="services.finishAt"
        values={{ finishAt: finishAt.url, service: finishAt.service }}
        components={{
          link: safe ? (
            <a
              href={finishAt.url}
              target="_blank"
              rel="noreferrer noopener"
              className="inline-flex items-center gap-1 font-medium break-all underline underline-offset-2"
            />
          ) : (
            <span className="font-medium break-all" />
          ),
        }}
      />
      {safe && <ExternalLink aria-hidden="true" className="ml-1 inline size-3.5 align-[-2px]" />}
    </Alert>
  );
}
