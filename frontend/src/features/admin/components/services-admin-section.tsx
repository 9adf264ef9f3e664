import { useEffect, useState } from 'react';
import type { ExternalServiceDto } from '@life/contracts';
import { CircleCheck, CircleX, ClipboardCheck, LoaderCircle, Pencil, PlugZap, RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AdminTable, TableMessageRow, Td, Th, Tr } from '@/components/layout/admin-table';
import { Button } from '@/components/ui/button';
import { truncate } from '@/lib/truncate';
import { cn } from '@/lib/utils';
import { useServices } from '@/shared/services/api/get-services';
import { useStartConnection } from '@/shared/services/api/start-connection';
import { CONNECT_BUTTON_CLASS } from '@/shared/services/components/connect-button-class';
import { ServiceEditDialog } from '@/shared/services/components/service-edit-dialog';
import { catalogDescription, catalogType } from '@/shared/services/utils/catalog-text';
import { displayNameOf } from '@/shared/services/utils/service-names';
import { connectActionFor, connectBlockedBy } from '@/shared/services/utils/service-rules';
import { reportError } from '@/lib/report-error';
import { ProviderSetupDialog, type ProviderSetupDialogProps } from './provider-setup-dialog';

const COLUMN_COUNT = 5;

/**
 * Admin section 'Servicios Conectados' (spec section 2): Servicio, Tipo, Estado and Descripción
 * (40 characters), with edit and Conectar (same condition as on the dashboard). Life's own types and
 * descriptions are shown in the language on screen, like the dashboard's cards.
 * The admin registry plugs this in.
 */
export function ServicesAdminSection() {
  const { t, i18n } = useTranslation();
  const services = useServices();
  const { connect, pending: connecting } = useStartConnection();
  const [editing, setEditing] = useState<{ open: boolean; service: ExternalServiceDto | null }>({ open: false, service: null });
  const [setup, setSetup] = useState<{ open: boolean; target: ProviderSetupDialogProps['target'] }>({ open: false, target: null });

  useEffect(() => {
    if (services.error) reportError('Error cargando servicios', services.error);
  }, [services.error]);

  return (
    <div className="max-w-5xl pt-2 pb-12">
      <AdminTable pinLastColumn data-testid="services-table" aria-label={t('services.admin.tableLabel')} className="min-w-[40rem]">
        <thead>
          <tr>
            <Th>{t('services.admin.columns.service')}</Th>
            <Th>{t('services.admin.columns.type')}</Th>
            <Th>{t('services.admin.columns.status')}</Th>
            <Th>{t('services.admin.columns.description')}</Th>
            <Th className="w-px text-right">{t('services.admin.columns.actions')}</Th>
          </tr>
        </thead>
        <tbody>
          {services.isPending ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('services.admin.loading')}</TableMessageRow>
          ) : !services.data?.length ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('services.admin.empty')}</TableMessageRow>
          ) : (
            services.data.map((service) => {
              // Life's own types and descriptions in the language on screen, as the dashboard shows them.
              const description = catalogDescription(service, i18n);
              const action = connectActionFor(service);
              const blockedBy = connectBlockedBy(service);
              const busy = connecting === service.service_name;
              const name = displayNameOf(service.service_name, i18n);
              return (
                <Tr key={service.id} data-testid="service-row" data-service={service.service_name} data-connected={String(service.connected)}>
                  <Td className="whitespace-nowrap">
                    {/* The name people see, and the key the editor changes (URLs, API paths and app scopes use it). */}
                    <span className="block font-medium">{name}</span>
                    {name !== service.service_name && (
                      <span className="block font-mono text-xs text-muted-foreground" data-testid="service-row-key">
                        {service.service_name}
                      </span>
                    )}
                  </Td>
                  <Td className="whitespace-nowrap text-muted-foreground">{catalogType(service.service_type, i18n)}</Td>
                  <Td className="whitespace-nowrap">
                    <span className={cn('inline-flex items-center gap-1.5 font-medium', service.connected ? 'text-green-700' : 'text-red-700')}>
                      {service.connected ? <CircleCheck aria-hidden="true" className="size-4" /> : <CircleX aria-hidden="true" className="size-4" />}
                      {service.connected ? t('services.connected') : t('services.disconnected')}
                    </span>
                  </Td>
                  <Td className="min-w-[12rem] text-muted-foreground" title={description || undefined} data-testid="service-row-description">
                    {truncate(description)}
                  </Td>
                  <Td className="text-right whitespace-nowrap">
                    <div className="flex items-center justify-end gap-1">
                      {action && (
                        <Button
                          size="sm"
                          className={CONNECT_BUTTON_CLASS}
                          disabled={busy || !!blockedBy}
                          aria-describedby={blockedBy ? `service-unavailable-${service.id}` : undefined}
                          onClick={() => void connect(service.service_name)}
                          data-testid={action === 'connect' ? 'service-connect' : 'service-reconnect'}
                        >
                          {busy ? (
                            <LoaderCircle aria-hidden="true" className="animate-spin" />
                          ) : action === 'connect' ? (
                            <PlugZap aria-hidden="true" />
                          ) : (
                            <RefreshCw aria-hidden="true" />
                          )}
                          {action === 'connect' ? t('services.connect') : t('services.reconnect')}
                        </Button>
                      )}
                      {blockedBy && (
                        // The disabled button takes no pointer: the reason is on this icon's tooltip and read with the button.
                        <span
                          className="inline-flex size-9 items-center justify-center text-amber-700"
                          title={t(`services.unavailable.${blockedBy}`)}
                          data-testid="service-unavailable"
                          data-reason={blockedBy}
                        >
                          <TriangleAlert aria-hidden="true" className="size-4" />
                          <span id={`service-unavailable-${service.id}`} className="sr-only">
                            {t(`services.unavailable.${blockedBy}`)}
                          </span>
                        </span>
                      )}
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-9 text-muted-foreground hover:text-foreground"
                        aria-label={t('admin.setup.open', { name })}
                        title={t('admin.setup.open', { name })}
                        onClick={() => setSetup({ open: true, target: { kind: 'service', id: service.id, name, callbackUrl: service.callback_url } })}
                        data-testid="service-setup"
                      >
                        <ClipboardCheck aria-hidden="true" />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-9 text-muted-foreground hover:text-foreground"
                        aria-label={t('services.edit', { name })}
                        title={t('services.edit', { name })}
                        onClick={() => setEditing({ open: true, service })}
                        data-testid="service-edit"
                      >
                        <Pencil aria-hidden="true" />
                      </Button>
                    </div>
                  </Td>
                </Tr>
              );
            })
          )}
        </tbody>
      </AdminTable>

      <ProviderSetupDialog open={setup.open} onOpenChange={(open) => setSetup((current) => ({ ...current, open }))} target={setup.target} />
      <ServiceEditDialog open={editing.open} onOpenChange={(open) => setEditing((current) => ({ ...current, open }))} service={editing.service} />
    </div>
  );
}
