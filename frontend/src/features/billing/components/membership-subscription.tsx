import type { Invoice, Membership } from '@life/contracts';
import { FileDown, LoaderCircle, Settings } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { apiErrorMessage } from '@/lib/api-client';
import { formatDate, formatPrice } from '@/lib/format';
import { useBillingPortal, useInvoices } from '../api/billing-portal';

const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;
type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
const isInvoiceStatus = (status: string | null): status is InvoiceStatus => INVOICE_STATUSES.includes(status as InvoiceStatus);

const money = (cents: number, currency: string) => formatPrice(cents / 100, currency.toUpperCase(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The member's side of the subscription (decisions 0047, 0048): when a cancellation takes effect
 * (or that it has), "Gestionar suscripción" (Stripe's customer portal) and the invoices.
 */
export function MembershipSubscription({ membership }: { membership: Membership }) {
  return (
    <div className="mt-6 grid gap-6 border-t pt-5">
      <CancellationState membership={membership} />
      <ManageSubscription />
      <InvoiceList />
    </div>
  );
}

/** "Se cancelará el …" while a cancellation waits for the period's end; what the end meant once it came. */
export function CancellationState({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  if (membership.status === 'cancelled') {
    return (
      <Alert variant="info" data-testid="membership-ended">
        {t('billing.subscription.ended')}
      </Alert>
    );
  }
  if (!membership.cancel_at) return null;
  return (
    <Alert variant="warning" data-testid="membership-cancel-at" data-cancel-at={membership.cancel_at}>
      <strong className="block">{t('billing.subscription.cancelsOn', { date: formatDate(new Date(membership.cancel_at)) })}</strong>
      <span className="mt-1 block">{t('billing.subscription.cancelsOnDetail')}</span>
    </Alert>
  );
}

function ManageSubscription() {
  const { t } = useTranslation();
  const portal = useBillingPortal();
  const busy = portal.isPending || portal.isSuccess;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" data-testid="manage-subscription" disabled={busy} aria-busy={busy || undefined} onClick={() => portal.mutate()}>
          {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Settings aria-hidden="true" />}
          {busy ? t('billing.subscription.opening') : t('billing.subscription.manage')}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">{t('billing.subscription.manageHint')}</p>
      {portal.isError && (
        <Alert variant="error" data-testid="portal-error">
          {apiErrorMessage(portal.error) ?? t('billing.subscription.portalError')}
        </Alert>
      )}
    </div>
  );
}

function InvoiceList() {
  const { t } = useTranslation();
  const invoices = useInvoices();
  return (
    <section aria-labelledby="invoices-title" data-testid="invoices" className="grid gap-3">
      <h3 id="invoices-title" className="text-base font-semibold text-foreground">
        {t('billing.subscription.invoices.title')}
      </h3>
      {invoices.isPending ? (
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin text-muted-foreground" />
      ) : invoices.isError ? (
        <Alert variant="error" data-testid="invoices-error">
          {t('billing.subscription.invoices.error')}
        </Alert>
      ) : invoices.data.invoices.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="invoices-empty">
          {t('billing.subscription.invoices.empty')}
        </p>
      ) : (
        <ul className="grid gap-2">
          {invoices.data.invoices.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </ul>
      )}
    </section>
  );
}

function InvoiceRow({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const number = invoice.number ?? t('billing.subscription.invoices.untitled');
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-2xl border px-4 py-3" data-testid="invoice" data-invoice-id={invoice.id}>
      <div className="grid min-w-0 gap-0.5">
        <span className="truncate font-medium text-foreground" data-testid="invoice-number">
          {number}
        </span>
        <span className="text-sm text-muted-foreground">
          {formatDate(new Date(invoice.date))}
          {' · '}
          <span data-testid="invoice-amount">{money(invoice.amount_cents, invoice.currency)}</span>
          {isInvoiceStatus(invoice.status) && (
            <>
              {' · '}
              <span data-testid="invoice-status" data-status={invoice.status}>
                {t(`billing.subscription.invoices.statuses.${invoice.status}`)}
              </span>
            </>
          )}
        </span>
        {invoice.tax_cents !== null && invoice.tax_cents > 0 && (
          <span className="text-xs text-muted-foreground" data-testid="invoice-tax">
            {t('billing.subscription.invoices.vat', { amount: money(invoice.tax_cents, invoice.currency) })}
          </span>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        {invoice.pdf_url && (
          <a
            href={invoice.pdf_url}
            className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline"
            data-testid="invoice-pdf"
            aria-label={t('billing.subscription.invoices.downloadLabel', { number })}
            rel="noopener noreferrer"
            target="_blank"
          >
            <FileDown aria-hidden="true" className="size-4" />
            {t('billing.subscription.invoices.download')}
          </a>
        )}
        {invoice.hosted_url && (
          <a
            href={invoice.hosted_url}
            className="text-sm text-muted-foreground underline-offset-4 hover:underline"
            data-testid="invoice-hosted"
            aria-label={t('billing.subscription.invoices.viewLabel', { number })}
            rel="noopener noreferrer"
            target="_blank"
          >
            {t('billing.subscription.invoices.view')}
          </a>
        )}
      </div>
    </li>
  );
}
