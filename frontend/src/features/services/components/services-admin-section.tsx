import { useEffect, useState, type ComponentProps, type ReactNode } from 'react';
import type { ExternalServiceDto } from '@life/contracts';
import { CircleCheck, CircleX, LoaderCircle, Pencil, PlugZap, RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { truncate } from '@/lib/truncate';
import { cn } from '@/lib/utils';
import { useServices } from '../api/get-services';
import { useStartConnection } from '../api/start-connection';
import { connectActionFor } from '../utils/service-rules';
import { ServiceEditDialog } from './service-edit-dialog';
import { CONNECT_BUTTON_CLASS } from './service-tile';

const COLUMN_COUNT = 5;

/**
 * Admin section 'Servicios Conectados' (spec section 2): Servicio, Tipo, Estado and Descripción
 * (40 characters), with edit and Conectar (same condition as on the dashboard).
 * The admin registry plugs this in; its cells copy the admin tables' look (features/admin/components/admin-table.tsx)
 * rather than import it, so features stay apart.
 */
export function ServicesAdminSection() {
  const { t } = useTranslation();
  const services = useServices();
  const { connect, pending: connecting } = useStartConnection();
  const [editing, setEditing] = useState<{ open: boolean; service: ExternalServiceDto | null }>({ open: false, service: null });

  useEffect(() => {
    if (services.error) console.error('Error cargando servicios', services.error);
  }, [services.error]);

  return (
    <div className="max-w-5xl pt-2 pb-12">
      <div className="overflow-x-auto rounded-2xl border bg-card shadow-soft">
        <table data-testid="services-table" aria-label={t('services.admin.tableLabel')} className="w-full min-w-[40rem] border-collapse text-left text-sm">
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
              <MessageRow>{t('services.admin.loading')}</MessageRow>
            ) : !services.data?.length ? (
              <MessageRow>{t('services.admin.empty')}</MessageRow>
            ) : (
              services.data.map((service) => {
                const description = service.description?.trim() ?? '';
                const action = connectActionFor(service);
                const busy = connecting === service.service_name;
                return (
                  <tr
                    key={service.id}
                    data-testid="service-row"
                    data-service={service.service_name}
                    data-connected={String(service.connected)}
                    className="group transition-colors hover:bg-muted/40"
                  >
                    <Td className="font-medium whitespace-nowrap">{service.service_name}</Td>
                    <Td className="whitespace-nowrap text-muted-foreground">{service.service_type}</Td>
                    <Td className="whitespace-nowrap">
                      <span className={cn('inline-flex items-center gap-1.5 font-medium', service.connected ? 'text-green-700' : 'text-red-700')}>
                        {service.connected ? <CircleCheck aria-hidden="true" className="size-4" /> : <CircleX aria-hidden="true" className="size-4" />}
                        {service.connected ? t('services.connected') : t('services.disconnected')}
                      </span>
                    </Td>
                    <Td className="whitespace-nowrap text-muted-foreground" title={description || undefined} data-testid="service-row-description">
                      {truncate(description)}
                    </Td>
                    <Td className="text-right whitespace-nowrap">
                      <div className="flex items-center justify-end gap-1">
                        {action && (
                          <Button
                            size="sm"
                            className={CONNECT_BUTTON_CLASS}
                            disabled={busy}
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
                        <Button
                          variant="ghost"
                          size="icon"
                          className="size-9 text-muted-foreground hover:text-foreground"
                          aria-label={t('services.edit', { name: service.service_name })}
                          title={t('services.edit', { name: service.service_name })}
                          onClick={() => setEditing({ open: true, service })}
                          data-testid="service-edit"
                        >
                          <Pencil aria-hidden="true" />
                        </Button>
                      </div>
                    </Td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      <ServiceEditDialog open={editing.open} onOpenChange={(open) => setEditing((current) => ({ ...current, open }))} service={editing.service} />
    </div>
  );
}

function Th({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <th
      scope="col"
      className={cn('border-b bg-muted/60 px-4 py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-muted-foreground uppercase', className)}
    >
      {children}
    </th>
  );
}

function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('border-b px-4 py-3 align-middle text-foreground group-last:border-b-0', className)} {...props} />;
}

function MessageRow({ children }: { children: ReactNode }) {
  return (
    <tr>
      <td colSpan={COLUMN_COUNT} className="px-4 py-10 text-center text-sm text-muted-foreground">
        {children}
      </td>
    </tr>
  );
}
