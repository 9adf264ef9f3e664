import type { ExternalServiceDto } from '@life/contracts';
import { CircleCheck, CircleX, LoaderCircle, Pencil, PlugZap, RefreshCw, Unplug } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { truncate } from '@/lib/truncate';
import { cn } from '@/lib/utils';
import { CONNECT_BUTTON_CLASS } from '@/shared/services/components/connect-button-class';
import { displayNameOf } from '@/shared/services/utils/service-names';
import { connectActionFor, LOGIN_SERVICE_TYPE } from '@/shared/services/utils/service-rules';
import { catalogDescription, catalogType } from '../utils/catalog-description';

export interface ServiceTileProps {
  service: ExternalServiceDto;
  onEdit: (service: ExternalServiceDto) => void;
  onConnect: (service: ExternalServiceDto) => void;
  onDisconnect: (service: ExternalServiceDto) => void;
  /** This service's connection is being started (the browser is about to leave). */
  connecting?: boolean;
  disconnecting?: boolean;
}

/**
 * A dashboard card, 210 × 340 px (spec sections 2 and 9): a top bar (green connected, red not),
 * an edit button, the name, Conectado / Desconectado (in words too, not only by colour),
 * 'Tipo: {service_type}' and the description cut to 40 characters (the full text as tooltip; Life's
 * own descriptions in the language on screen).
 */
export function ServiceTile({ service, onEdit, onConnect, onDisconnect, connecting = false, disconnecting = false }: ServiceTileProps) {
  const { t, i18n } = useTranslation();
  const { connected } = service;
  const action = connectActionFor(service);
  const description = catalogDescription(service, i18n);
  const StatusIcon = connected ? CircleCheck : CircleX;
  const name = displayNameOf(service.service_name, i18n);
  // A login-type service (githublogin) is "connected" when the person signs in with it: it says so, and is never disconnected here.
  const login = service.service_type === LOGIN_SERVICE_TYPE;

  return (
    <article
      data-testid="service-tile"
      data-service={service.service_name}
      data-connected={String(connected)}
      aria-label={name}
      className="flex h-[340px] w-[210px] shrink-0 flex-col overflow-hidden rounded-2xl border bg-card shadow-soft transition-shadow hover:shadow-lift"
    >
      <div aria-hidden="true" data-testid="service-tile-bar" className={cn('h-2 shrink-0', connected ? 'bg-green-600' : 'bg-red-600')} />
      <div className="flex min-h-0 flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-2">
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
        <p data-testid="service-status" className={cn('flex items-center gap-1.5 text-sm font-medium', connected ? 'text-green-700' : 'text-red-700')}>
          <StatusIcon aria-hidden="true" className="size-4 shrink-0" />
          {connected ? t('services.connected') : t('services.disconnected')}
        </p>
        <p className="text-sm text-muted-foreground">{t('services.type', { type: catalogType(service.service_type, i18n) })}</p>
        <p className="text-sm leading-relaxed text-foreground/80 break-words" title={description || undefined} data-testid="service-description">
          {truncate(description)}
        </p>
        {login && (
          <p className="text-xs leading-snug text-muted-foreground" data-testid="service-login-hint">
            {connected ? t('services.login.signedIn') : t('services.login.notSignedIn')}
          </p>
        )}
        {service.needs_reconnect && <p className="text-xs leading-snug text-red-700">{t('services.reconnectHint')}</p>}
        <div className="mt-auto grid gap-2">
          {action && (
            <Button
              className={CONNECT_BUTTON_CLASS}
              onClick={() => onConnect(service)}
              disabled={connecting}
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
