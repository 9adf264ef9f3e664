import type { DayView, ExternalServiceDto } from '@life/contracts';
import { useId, useState } from 'react';
import { ChevronDown, CircleCheck, CircleX, Eye, FlaskConical, LoaderCircle, Pencil, PlugZap, RefreshCw, TriangleAlert, Unplug } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { truncate } from '@/lib/truncate';
import { cn } from '@/lib/utils';
import { CONNECT_BUTTON_CLASS } from '@/shared/services/components/connect-button-class';
import { displayNameOf } from '@/shared/services/utils/service-names';
import { connectActionFor, connectBlockedBy, LOGIN_SERVICE_TYPE } from '@/shared/services/utils/service-rules';
import { DayHeadline } from '@/shared/your-day/components/day-status';
import { catalogDescription, catalogType } from '../utils/catalog-description';

export interface ServiceTileProps {
  service: ExternalServiceDto;
  onEdit: (service: ExternalServiceDto) => void;
  /** `region`: the one picked on the card, for a service with regions (World of Warcraft). */
  onConnect: (service: ExternalServiceDto, region?: string) => void;
  onDisconnect: (service: ExternalServiceDto) => void;
  /** This service's connection is being started (the browser is about to leave). */
  connecting?: boolean;
  disconnecting?: boolean;
  /** The service's "Tu día" view (issue 19), when it is connected and has one: its headline and 'Ver detalles'. */
  dayView?: DayView | null;
  /** 'Ver detalles': opens the view's detail panel. */
  onOpenDayView?: (service: ExternalServiceDto) => void;
}

/**
 * A dashboard card, 210 × 340 px (spec sections 2 and 9; below 480 px wide, as wide as the page and
 * as tall as its content, state and type on one line, so twelve cards do not make a 5,500 px page): a top bar (green connected, red not),
 * an edit button, the name, Conectado / Desconectado (in words too, not only by colour),
 * 'Tipo: {service_type}' and the description cut to 40 characters (the full text as tooltip; Life's
 * own descriptions in the language on screen). When Conectar cannot work (maintenance, nothing
 * configured) the card says why before any click and the button is disabled, described by that
 * line; when it goes to a development provider (decision 0020) the card says so too. A connected
 * service with a "Tu día" view (issue 19) adds the view's one-line headline and 'Ver detalles', which
 * opens its detail panel (the card keeps its 340 px).
 */
export function ServiceTile({
  service,
  onEdit,
  onConnect,
  onDisconnect,
  connecting = false,
  disconnecting = false,
  dayView = null,
  onOpenDayView,
}: ServiceTileProps) {
  const { t, i18n } = useTranslation();
  const { connected } = service;
  const action = connectActionFor(service);
  const blockedBy = connectBlockedBy(service);
  const noteId = useId();
  const description = catalogDescription(service, i18n);
  const StatusIcon = connected ? CircleCheck : CircleX;
  const name = displayNameOf(service.service_name, i18n);
  // A login-type service (githublogin) is "connected" when the person signs in with it: it says so, and is never disconnected here.
  const login = service.service_type === LOGIN_SERVICE_TYPE;
  // A service with regions (World of Warcraft) is connected in the region picked here (decision 0042).
  const regions = service.regions ?? [];
  const [region, setRegion] = useState(() => (service.region && regions.includes(service.region) ? service.region : regions[0]));
  const regionId = useId();
  const broken = service.needs_reconnect && !connected;
  // The view's one line and its button fit in the card's 340 px: the headline is cut to one line.
  const view = connected && dayView && onOpenDayView ? dayView : null;

  return (
    <article
      data-testid="service-tile"
      data-service={service.service_name}
      data-connected={String(connected)}
      aria-label={name}
      className="flex w-full shrink-0 flex-col overflow-hidden rounded-2xl border bg-card shadow-soft transition-shadow hover:shadow-lift min-[480px]:h-[340px] min-[480px]:w-[210px]"
    >
      <div aria-hidden="true" data-testid="service-tile-bar" className={cn('h-2 shrink-0', connected ? 'bg-green-600' : 'bg-red-600')} />
      <div className="flex min-h-0 flex-1 flex-row flex-wrap content-start gap-x-4 gap-y-2 p-3 min-[480px]:flex-col min-[480px]:flex-nowrap min-[480px]:gap-3 min-[480px]:p-4">
        <div className="flex w-full items-start justify-between gap-2">
          <h3 className="min-w-0 pt-1 text-base leading-snug font-semibold break-words text-foreground">{name}</h3>
          <Button
            variant="ghost"
            size="icon"
            className="-mt-1 -mr-2 size-9 text-muted-foreground hover:text-foreground [&_svg]:size-4"
            aria-label={t('services.edit', { name })}
            title={t('services.edit', { name })}
            onClick={() => onEdit(service)}
            data-testid="service-edit"
          >
            <Pencil aria-hidden="true" />
          </Button>
        </div>
        <p
          data-testid="service-status"
          data-state={connected ? 'connected' : broken ? 'needs_reconnect' : 'disconnected'}
          className={cn('flex items-center gap-1.5 text-sm font-medium', connected ? 'text-green-700' : 'text-red-700')}
        >
          {broken ? <TriangleAlert aria-hidden="true" className="size-4 shrink-0" /> : <StatusIcon aria-hidden="true" className="size-4 shrink-0" />}
          {connected ? t('services.connected') : broken ? t('services.needsReconnect') : t('services.disconnected')}
        </p>
        <p className="text-sm text-muted-foreground">{t('services.type', { type: catalogType(service.service_type, i18n) })}</p>
        <p className="w-full text-sm leading-relaxed text-foreground/80 break-words" title={description || undefined} data-testid="service-description">
          {truncate(description)}
        </p>
        {login && (
          <p className="w-full text-xs leading-snug text-muted-foreground" data-testid="service-login-hint">
            {connected ? t('services.login.signedIn') : t('services.login.notSignedIn')}
          </p>
        )}
        {/* The status line already says it; a card with a region picker has no room for the longer hint (340 px). */}
        {service.needs_reconnect && !blockedBy && regions.length === 0 && (
          <p className="w-full text-xs leading-snug text-red-700">{t('services.reconnectHint')}</p>
        )}
        {blockedBy ? (
          <p id={noteId} data-testid="service-unavailable" data-reason={blockedBy} className="flex w-full gap-1.5 text-xs leading-snug text-amber-800">
            <TriangleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
            <span>{t(`services.unavailable.${blockedBy}`)}</span>
          </p>
        ) : (
          action &&
          service.dev_provider && (
            <p id={noteId} data-testid="service-dev-provider" className="flex w-full gap-1.5 text-xs leading-snug text-muted-foreground">
              <FlaskConical aria-hidden="true" className="mt-px size-3.5 shrink-0" />
              <span>{t('services.devProvider')}</span>
            </p>
          )
        )}
        <div className="mt-auto grid w-full gap-2">
          {action && regions.length > 0 && (
            <div className="flex items-center gap-2">
              <label htmlFor={regionId} className="shrink-0 text-xs font-medium text-muted-foreground">
                {t('services.region.label')}
              </label>
              <div className="relative min-w-0 flex-1">
                <select
                  id={regionId}
                  value={region}
                  onChange={(event) => setRegion(event.target.value)}
                  disabled={connecting || !!blockedBy}
                  data-testid="service-region"
                  className="h-9 w-full min-w-0 cursor-pointer appearance-none truncate rounded-lg border border-input bg-card pr-8 pl-2.5 text-sm text-foreground outline-none focus-visible:border-ring focus-visible:ring-4 focus-visible:ring-ring/15 disabled:cursor-not-allowed disabled:opacity-50"
                >
                  {regions.map((key) => (
                    <option key={key} value={key}>
                      {t(`services.region.names.${key}`, { defaultValue: key.toUpperCase() })}
                    </option>
                  ))}
                </select>
                <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
              </div>
            </div>
          )}
          {action && (
            <Button
              className={CONNECT_BUTTON_CLASS}
              onClick={() => onConnect(service, regions.length > 0 ? region : undefined)}
              disabled={connecting || !!blockedBy}
              aria-describedby={blockedBy || service.dev_provider ? noteId : undefined}
              data-testid={action === 'connect' ? 'service-connect' : 'service-reconnect'}
            >
              {connecting ? (
                <LoaderCircle aria-hidden="true" className="animate-spin" />
              ) : action === 'connect' ? (
                <PlugZap aria-hidden="true" />
              ) : (
                <RefreshCw aria-hidden="true" />
              )}
              {action === 'connect' ? t('services.connect') : t('services.reconnect')}
            </Button>
          )}
          {view && (
            <>
              <DayHeadline view={view} />
              <Button
                variant="secondary"
                size="sm"
                aria-haspopup="dialog"
                aria-label={t('yourDay.card.openLabel', { name })}
                onClick={() => onOpenDayView?.(service)}
                data-testid={`day-open-${service.service_name}`}
              >
                <Eye aria-hidden="true" />
                {t('yourDay.card.open')}
              </Button>
            </>
          )}
          {connected && !login && (
            <Button variant="outline" onClick={() => onDisconnect(service)} disabled={disconnecting} data-testid="service-disconnect">
              {disconnecting ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Unplug aria-hidden="true" />}
              {t('services.disconnect')}
            </Button>
          )}
        </div>
      </div>
    </article>
  );
}
