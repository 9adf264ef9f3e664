import { AUDIT_ACTIONS, type AuditEvent } from '@life/contracts';
import { ChevronDown, LoaderCircle, RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AdminTable, TableMessageRow, Td, Th, Tr } from '@/components/layout/admin-table';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { apiErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useAuditEvents } from '../api/get-audit-events';

const COLUMN_COUNT = 5;
const KNOWN_ACTIONS: ReadonlySet<string> = new Set(AUDIT_ACTIONS);
/** What the log's records point at (`target_type`), each with a word in the catalogs (`admin.audit.targets`). */
const KNOWN_TARGETS: ReadonlySet<string> = new Set([
  'user',
  'login_provider',
  'beta_invite',
  'external_service',
  'service_connection',
  'oauth_client',
  'oauth_grant',
  'oauth_code',
  'token_family',
  'data_export',
  'membership',
  'queue_job',
  'key_ring',
  'signing_key',
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Spanish (or English) label for the known actions; anything newer shows its code. */
function useAuditActionLabel() {
  const { t } = useTranslation();
  // The codes have dots, which i18next reads as nesting: 'auth.sign_in' → actions.auth.sign_in.
  return (action: string) => (KNOWN_ACTIONS.has(action) ? t(`admin.audit.actions.${action}`) : action);
}

/** The audit log, newest first, 50 at a time ('Cargar más' follows the server's cursor). */
export function AuditLogView() {
  const { t } = useTranslation();
  const events = useAuditEvents();
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  const loadingFirstPage = events.isPending;
  const failedFirstPage = events.isError && !events.data;

  return (
    <div className="grid gap-4" data-testid="audit-log">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">{t('admin.audit.description')}</p>
        <Button variant="outline" size="sm" disabled={events.isFetching} onClick={() => void events.refetch()} data-testid="audit-refresh">
          <RefreshCw aria-hidden="true" className={events.isRefetching && !events.isFetchingNextPage ? 'animate-spin' : undefined} />
          {t('admin.audit.refresh')}
        </Button>
      </div>

      {events.isError && (
        <Alert variant="error" data-testid="audit-error">
          {events.isFetchNextPageError ? t('admin.audit.errors.more') : t('admin.audit.errors.list')}
          {apiErrorMessage(events.error) && <span className="block text-xs opacity-80">{apiErrorMessage(events.error)}</span>}
        </Alert>
      )}

      <AdminTable data-testid="audit-table" aria-label={t('admin.audit.tableLabel')} className="min-w-[48rem]">
        <thead>
          <tr>
            <Th>{t('admin.audit.columns.date')}</Th>
            <Th>{t('admin.audit.columns.action')}</Th>
            <Th>{t('admin.audit.columns.actor')}</Th>
            <Th>{t('admin.audit.columns.target')}</Th>
            <Th>{t('admin.audit.columns.ip')}</Th>
          </tr>
        </thead>
        <tbody>
          {loadingFirstPage ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('admin.audit.loading')}</TableMessageRow>
          ) : failedFirstPage ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('admin.audit.unavailable')}</TableMessageRow>
          ) : items.length === 0 ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('admin.audit.empty')}</TableMessageRow>
          ) : (
            items.map((event) => <AuditRow key={event.id} event={event} />)
          )}
        </tbody>
      </AdminTable>

      {events.hasNextPage && (
        <div className="flex justify-center">
          <Button variant="outline" disabled={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()} data-testid="audit-load-more">
            {events.isFetchingNextPage ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <ChevronDown aria-hidden="true" />}
            {t('admin.audit.loadMore')}
          </Button>
        </div>
      )}
    </div>
  );
}

function AuditRow({ event }: { event: AuditEvent }) {
  const { t } = useTranslation(); // Also re-renders the date in a new language.
  const label = useAuditActionLabel();
  const type = event.target_type;
  const typeLabel = type ? (KNOWN_TARGETS.has(type) ? t(`admin.audit.targets.${type}`) : type) : null;
  // The name the owning module gave; an id that is a name already (an e-mail, a provider, a key id) as it is. Never a bare UUID.
  const name = event.target_label ?? (event.target_id && !UUID.test(event.target_id) ? event.target_id : null);
  return (
    <Tr data-testid="audit-row" data-action={event.action}>
      <Td className="whitespace-nowrap text-muted-foreground">
        <time dateTime={event.at}>{formatDateTime(event.at)}</time>
      </Td>
      <Td className="font-medium" title={event.action} data-testid="audit-action">
        {label(event.action)}
      </Td>
      <Td className="break-words" data-testid="audit-actor">
        {event.actor_label ?? '—'}
      </Td>
      <Td className="min-w-[12rem]" data-testid="audit-target" title={event.target_id ?? undefined}>
        {typeLabel || name ? (
          <>
            {typeLabel && <span className="block text-xs text-muted-foreground">{typeLabel}</span>}
            {name && (
              <span className="block font-medium break-all" data-testid="audit-target-name">
                {name}
              </span>
            )}
          </>
        ) : (
          '—'
        )}
      </Td>
      <Td className="min-w-[8rem] font-mono text-xs break-all text-muted-foreground" data-testid="audit-ip">
        {event.ip ?? '—'}
      </Td>
    </Tr>
  );
}
