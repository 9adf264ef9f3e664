import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { InvoicesSchema, PortalSessionSchema, type Invoices } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { reportError } from '@/lib/report-error';
import { checkoutNavigation } from './start-checkout';
import { BILLING_QUERY_KEY } from './query-keys';

/**
 * `POST /api/billing/portal`: Stripe's customer portal for the member's own customer (payment
 * method, invoices, cancelling); the browser goes there and Stripe brings it back to /profile.
 */
export async function openBillingPortal(): Promise<void> {
  const { url } = await apiRequest('/api/billing/portal', { method: 'POST', schema: PortalSessionSchema });
  checkoutNavigation.assign(url);
}

export function useBillingPortal() {
  return useMutation({
    mutationFn: openBillingPortal,
    onError: (error) => reportError('Error al abrir el portal de Stripe', error),
  });
}

/** `GET /api/billing/invoices`: the member's own invoices, newest first, with Stripe's links. */
export function invoicesQueryOptions() {
  return queryOptions({
    queryKey: [...BILLING_QUERY_KEY, 'invoices'],
    queryFn: ({ signal }): Promise<Invoices> => apiRequest('/api/billing/invoices', { schema: InvoicesSchema, signal }),
  });
}

export function useInvoices({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...invoicesQueryOptions(), enabled });
}
