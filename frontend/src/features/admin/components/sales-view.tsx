import { useDeferredValue, useId, useState, type ReactNode } from 'react';
import {
  EDITION_IDS,
  MEMBERSHIP_STATUSES,
  type EditionId,
  type SalesEdition,
  type SalesMember,
  type SalesMembersFilter,
  type SalesSummary,
} from '@life/contracts';
import { ChevronLeft, ChevronRight, Download, HeartPulse, LoaderCircle, Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AdminTable, TableMessageRow, Td, Th, Tr } from '@/components/layout/admin-table';
import { useOpenAdminSection } from '@/components/layout/admin-panel-shell';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { formatDateTime, formatNumber, formatPrice } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useExportSalesMembers } from '../api/export-sales-members';
import { SALES_PAGE_SIZE, useSalesAttentionEvents, useSalesMembers, useSalesRefunds, useSalesSummary } from '../api/get-sales';

const EDITION_NAMES: Record<EditionId, string> = { elite: 'Élite', prestige: 'Prestige', legacy: 'Legacy' };

/** The editions table's number columns: headers may wrap ("Ingresos mensuales (MRR)"), so all eight fit beside the menu at 1280 px. */
const NUMBER_HEADER = 'text-right align-bottom whitespace-normal';

const euros = (cents: number) => formatPrice(cents / 100, 'EUR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const STATUS_STYLE: Record<SalesMember['status'], string> = {
  active: 'bg-success/10 text-[#166534]',
  past_due: 'bg-amber-100 text-[#854d0e]',
  pending_payment: 'bg-muted text-muted-foreground',
  cancelled: 'bg-muted text-muted-foreground',
  refunded: 'bg-destructive/10 text-[#991b1b]',
  disputed: 'bg-destructive/10 text-[#991b1b]',
};

function StatusBadge({ status }: { status: SalesMember['status'] }) {
  const { t } = useTranslation();
  return (
    <span className={cn('inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap', STATUS_STYLE[status])} data-testid="sales-status">
      {t(`billing.membership.statuses.${status}`)}
    </span>
  );
}

function MemberEmail({ member }: { member: SalesMember }) {
  const { t } = useTranslation();
  return member.email ? (
    <span className="whitespace-nowrap">{member.email}</span>
  ) : (
    <span className="text-muted-foreground italic" data-testid="sales-erased">
      {t('admin.sales.erased')}
    </span>
  );
}

function Block({ id, title, description, action, children }: { id: string; title: string; description?: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h4 id={id} className="text-lg font-semibold tracking-tight text-foreground">
            {title}
          </h4>
          {description && <p className="max-w-3xl text-sm text-muted-foreground">{description}</p>}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

/**
 * The admin's "Ventas" (issue 17, opened from the panel's header like the contact messages,
 * decision 0049): per edition the seats and the money, the members (filter, search, pages, CSV),
 * refunds and disputes, and the Stripe events that need attention. Read-only.
 */
export function SalesView() {
  const { t } = useTranslation();
  const id = useId();
  const summary = useSalesSummary();
  return (
    <div className="grid max-w-6xl gap-10 pt-2 pb-12" data-testid="sales-view">
      <Block id={`${id}-editions`} title={t('admin.sales.editions.title')} description={t('admin.sales.editions.note')}>
        {summary.isError && <Alert variant="error">{t('admin.sales.error')}</Alert>}
        <EditionsTable summary={summary.data} loading={summary.isPending} labelledBy={`${id}-editions`} />
      </Block>
      <MembersBlock id={`${id}-members`} />
      <RefundsBlock id={`${id}-refunds`} />
      <AttentionBlock id={`${id}-events`} />
    </div>
  );
}

function EditionsTable({ summary, loading, labelledBy }: { summary?: SalesSummary; loading: boolean; labelledBy: string }) {
  const { t } = useTranslation();
  const columns = 8;
  const numbers = (row: Pick<SalesEdition, 'seat_limit' | 'sold' | 'reserved' | 'free' | 'mrr_cents' | 'collected_at_checkout_cents'>, active?: number) => (
    <>
      <Td className="text-right tabular-nums">{formatNumber(row.seat_limit)}</Td>
      <Td className="text-right tabular-nums" data-testid="sales-sold">
        {formatNumber(row.sold)}
      </Td>
      <Td className="text-right tabular-nums">{formatNumber(row.reserved)}</Td>
      <Td className="text-right tabular-nums" data-testid="sales-free">
        {formatNumber(row.free)}
      </Td>
      <Td className="text-right tabular-nums">{active === undefined ? '' : formatNumber(active)}</Td>
      <Td className="text-right whitespace-nowrap tabular-nums" data-testid="sales-mrr">
        {euros(row.mrr_cents)}
      </Td>
      <Td className="text-right whitespace-nowrap tabular-nums" data-testid="sales-collected">
        {euros(row.collected_at_checkout_cents)}
      </Td>
    </>
  );
  return (
    <AdminTable pinFirstColumn aria-labelledby={labelledBy} data-testid="sales-editions" className="min-w-[44rem]">
      <thead>
        <tr>
          <Th className="align-bottom">{t('admin.sales.columns.edition')}</Th>
          <Th className={NUMBER_HEADER}>{t('admin.sales.columns.seatLimit')}</Th>
          <Th className={NUMBER_HEADER}>{t('admin.sales.columns.sold')}</Th>
          <Th className={NUMBER_HEADER}>{t('admin.sales.columns.reserved')}</Th>
          <Th className={NUMBER_HEADER}>{t('admin.sales.columns.free')}</Th>
          <Th className={NUMBER_HEADER}>{t('admin.sales.columns.activeMembers')}</Th>
          <Th className={NUMBER_HEADER}>{t('admin.sales.columns.mrr')}</Th>
          <Th className={NUMBER_HEADER}>{t('admin.sales.columns.collected')}</Th>
        </tr>
      </thead>
      <tbody>
        {loading ? (
          <TableMessageRow colSpan={columns}>{t('admin.sales.loading')}</TableMessageRow>
        ) : !summary ? null : (
          <>
            {summary.editions.map((edition) => (
              <Tr key={edition.id} data-testid="sales-edition" data-edition={edition.id}>
                <Td className="font-medium whitespace-nowrap">
                  {edition.name}
                  <span className="block text-xs font-normal text-muted-foreground">
                    {t('admin.sales.perMonth', { price: formatPrice(edition.price_cents / 100) })}
                  </span>
                </Td>
                {numbers(edition, edition.members_by_status.active)}
              </Tr>
            ))}
            <Tr data-testid="sales-total" className="font-semibold">
              <Td>{t('admin.sales.total')}</Td>
              {numbers(
                summary.totals,
                summary.editions.reduce((sum, edition) => sum + edition.members_by_status.active, 0),
              )}
            </Tr>
          </>
        )}
      </tbody>
    </AdminTable>
  );
}

function MembersBlock({ id }: { id: string }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<SalesMembersFilter>({});
  const [page, setPage] = useState(1);
  // Deferred, so typing stays responsive while the list for the last text loads.
  const deferredQ = useDeferredValue(filter.q ?? '');
  const query = { ...filter, q: deferredQ };
  const members = useSalesMembers(query, page);
  const exportCsv = useExportSalesMembers();
  const pages = members.data ? Math.max(1, Math.ceil(members.data.total / SALES_PAGE_SIZE)) : 1;
  const change = (next: Partial<SalesMembersFilter>) => {
    setFilter((current) => ({ ...current, ...next }));
    setPage(1);
  };
  const columns = 5;

  return (
    <Block
      id={id}
      title={t('admin.sales.members.title')}
      action={
        <Button variant="outline" disabled={exportCsv.isPending} onClick={() => exportCsv.mutate(query)} data-testid="sales-export">
          {exportCsv.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Download aria-hidden="true" />}
          {t('admin.sales.members.export')}
        </Button>
      }
    >
      <div className="grid gap-4 rounded-2xl border bg-card p-4 shadow-soft sm:grid-cols-[1fr_1fr_2fr] sm:p-5">
        <div className="grid gap-2">
          <label htmlFor={`${id}-edition`} className="text-sm font-medium text-foreground">
            {t('admin.sales.columns.edition')}
          </label>
          <NativeSelect
            id={`${id}-edition`}
            value={filter.edition ?? ''}
            onChange={(event) => change({ edition: (event.target.value || undefined) as EditionId | undefined })}
            data-testid="sales-filter-edition"
          >
            <option value="">{t('admin.sales.members.allEditions')}</option>
            {EDITION_IDS.map((edition) => (
              <option key={edition} value={edition}>
                {EDITION_NAMES[edition]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-2">
          <label htmlFor={`${id}-status`} className="text-sm font-medium text-foreground">
            {t('admin.sales.columns.status')}
          </label>
          <NativeSelect
            id={`${id}-status`}
            value={filter.status ?? ''}
            onChange={(event) => change({ status: (event.target.value || undefined) as SalesMember['status'] | undefined })}
            data-testid="sales-filter-status"
          >
            <option value="">{t('admin.sales.members.allStatuses')}</option>
            {MEMBERSHIP_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`billing.membership.statuses.${status}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-2">
          <label htmlFor={`${id}-q`} className="text-sm font-medium text-foreground">
            {t('admin.sales.members.search')}
          </label>
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              id={`${id}-q`}
              type="search"
              maxLength={200}
              className="pl-9"
              value={filter.q ?? ''}
              onChange={(event) => change({ q: event.target.value })}
              data-testid="sales-search"
            />
          </div>
        </div>
      </div>

      {(members.isError || exportCsv.isError) && (
        <Alert variant="error" data-testid="sales-members-error">
          {members.isError && <p>{t('admin.sales.error')}</p>}
          {exportCsv.isError && <p>{t('admin.sales.members.exportError')}</p>}
        </Alert>
      )}

      <AdminTable
        pinFirstColumn
        aria-labelledby={id}
        data-testid="sales-members"
        className={cn('min-w-[44rem]', members.isPlaceholderData && 'opacity-60')}
        aria-busy={members.isFetching || undefined}
      >
        <thead>
          <tr>
            <Th className="w-24 whitespace-normal">{t('admin.sales.columns.memberNumber')}</Th>
            <Th>{t('admin.sales.columns.email')}</Th>
            <Th>{t('admin.sales.columns.edition')}</Th>
            <Th>{t('admin.sales.columns.status')}</Th>
            <Th>{t('admin.sales.columns.since')}</Th>
          </tr>
        </thead>
        <tbody>
          {members.isPending ? (
            <TableMessageRow colSpan={columns}>{t('admin.sales.loading')}</TableMessageRow>
          ) : !members.data?.items.length ? (
            <TableMessageRow colSpan={columns}>{t('admin.sales.members.empty')}</TableMessageRow>
          ) : (
            members.data.items.map((member) => (
              <Tr key={member.member_number} data-testid="sales-member" data-number={member.member_number}>
                <Td className="font-medium tabular-nums">{formatNumber(member.member_number, { useGrouping: false })}</Td>
                <Td>
                  <MemberEmail member={member} />
                </Td>
                <Td className="whitespace-nowrap">{EDITION_NAMES[member.edition]}</Td>
                <Td>
                  <StatusBadge status={member.status} />
                </Td>
                <Td className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={member.since}>{formatDateTime(member.since)}</time>
                </Td>
              </Tr>
            ))
          )}
        </tbody>
      </AdminTable>

      <nav aria-label={t('admin.sales.members.pagination')} className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" data-testid="sales-page">
          {t('admin.sales.members.page', { page: formatNumber(page), pages: formatNumber(pages), total: formatNumber(members.data?.total ?? 0) })}
        </p>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((current) => current - 1)} data-testid="sales-previous">
            <ChevronLeft aria-hidden="true" />
            {t('admin.sales.members.previous')}
          </Button>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((current) => current + 1)} data-testid="sales-next">
            {t('admin.sales.members.next')}
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </nav>
    </Block>
  );
}

function RefundsBlock({ id }: { id: string }) {
  const { t } = useTranslation();
  const refunds = useSalesRefunds();
  const columns = 4;
  return (
    <Block id={id} title={t('admin.sales.refunds.title')}>
      {refunds.isError && <Alert variant="error">{t('admin.sales.error')}</Alert>}
      <AdminTable pinFirstColumn aria-labelledby={id} data-testid="sales-refunds" className="min-w-[40rem]">
        <thead>
          <tr>
            <Th className="w-24 whitespace-normal">{t('admin.sales.columns.memberNumber')}</Th>
            <Th>{t('admin.sales.columns.email')}</Th>
            <Th>{t('admin.sales.columns.status')}</Th>
            <Th>{t('admin.sales.columns.statusAt')}</Th>
          </tr>
        </thead>
        <tbody>
          {refunds.isPending ? (
            <TableMessageRow colSpan={columns}>{t('admin.sales.loading')}</TableMessageRow>
          ) : !refunds.data?.items.length ? (
            <TableMessageRow colSpan={columns}>{t('admin.sales.refunds.empty')}</TableMessageRow>
          ) : (
            refunds.data.items.map((member) => (
              <Tr key={member.member_number} data-testid="sales-refund" data-number={member.member_number}>
                <Td className="font-medium tabular-nums">{formatNumber(member.member_number, { useGrouping: false })}</Td>
                <Td>
                  <MemberEmail member={member} />
                </Td>
                <Td>
                  <StatusBadge status={member.status} />
                </Td>
                <Td className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={member.status_at}>{formatDateTime(member.status_at)}</time>
                </Td>
              </Tr>
            ))
          )}
        </tbody>
      </AdminTable>
    </Block>
  );
}

function AttentionBlock({ id }: { id: string }) {
  const { t } = useTranslation();
  const events = useSalesAttentionEvents();
  const openSection = useOpenAdminSection();
  const columns = 4;
  return (
    <Block
      id={id}
      title={t('admin.sales.events.title')}
      description={t('admin.sales.events.note')}
      action={
        <Button variant="outline" onClick={() => openSection('salud')} data-testid="sales-open-health">
          <HeartPulse aria-hidden="true" />
          {t('admin.sales.events.openHealth')}
        </Button>
      }
    >
      {events.isError && <Alert variant="error">{t('admin.sales.error')}</Alert>}
      <AdminTable pinFirstColumn aria-labelledby={id} data-testid="sales-events" className="min-w-[44rem]">
        <thead>
          <tr>
            <Th>{t('admin.sales.events.type')}</Th>
            <Th>{t('admin.sales.events.received')}</Th>
            <Th className="text-right">{t('admin.sales.events.attempts')}</Th>
            <Th>{t('admin.sales.events.lastError')}</Th>
          </tr>
        </thead>
        <tbody>
          {events.isPending ? (
            <TableMessageRow colSpan={columns}>{t('admin.sales.loading')}</TableMessageRow>
          ) : !events.data?.items.length ? (
            <TableMessageRow colSpan={columns}>{t('admin.sales.events.empty')}</TableMessageRow>
          ) : (
            events.data.items.map((event) => (
              <Tr key={event.id} data-testid="sales-event" data-event={event.id}>
                <Td className="font-mono text-xs whitespace-nowrap">{event.type}</Td>
                <Td className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={event.received_at}>{formatDateTime(event.received_at)}</time>
                </Td>
                <Td className="text-right tabular-nums">{formatNumber(event.attempts)}</Td>
                <Td className="min-w-[16rem] break-words text-muted-foreground">{event.last_error ?? '—'}</Td>
              </Tr>
            ))
          )}
        </tbody>
      </AdminTable>
    </Block>
  );
}
