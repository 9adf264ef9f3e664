import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  SalesAttentionEventsSchema,
  SalesMembersPageSchema,
  SalesRefundsSchema,
  SalesSummarySchema,
  type SalesAttentionEvents,
  type SalesMembersFilter,
  type SalesMembersPage,
  type SalesRefunds,
  type SalesSummary,
} from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

export const SALES_PAGE_SIZE = 25;

/** `GET /api/admin/sales`: per edition the seats, members by status, MRR and what checkouts collected. */
export function getSalesSummary({ signal }: { signal?: AbortSignal } = {}): Promise<SalesSummary> {
  return apiRequest('/api/admin/sales', { schema: SalesSummarySchema, signal });
}

export function salesSummaryQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'sales', 'summary'], queryFn: ({ signal }) => getSalesSummary({ signal }), staleTime: 0 });
}

export function useSalesSummary() {
  return useQuery(salesSummaryQueryOptions());
}

/** The members list's filters as a query string (empty values left out). */
export function salesFilterSearch(filter: SalesMembersFilter, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (filter.edition) query.set('edition', filter.edition);
  if (filter.status) query.set('status', filter.status);
  if (filter.q?.trim()) query.set('q', filter.q.trim());
  return query.toString();
}

/** `GET /api/admin/sales/members?edition=&status=&q=&page=&page_size=`. */
export function getSalesMembers(filter: SalesMembersFilter, page: number, { signal }: { signal?: AbortSignal } = {}): Promise<SalesMembersPage> {
  const search = salesFilterSearch(filter, { page: String(page), page_size: String(SALES_PAGE_SIZE) });
  return apiRequest(`/api/admin/sales/members?${search}`, { schema: SalesMembersPageSchema, signal });
}

export function salesMembersQueryOptions(filter: SalesMembersFilter, page: number) {
  return queryOptions({
    queryKey: ['admin', 'sales', 'members', filter.edition ?? 'all', filter.status ?? 'all', filter.q?.trim() ?? '', page],
    queryFn: ({ signal }) => getSalesMembers(filter, page, { signal }),
    // Keep showing the previous page while the next one (or another filter) loads.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useSalesMembers(filter: SalesMembersFilter, page: number) {
  return useQuery(salesMembersQueryOptions(filter, page));
}

/** `GET /api/admin/sales/refunds`: refunded and disputed memberships. */
export function getSalesRefunds({ signal }: { signal?: AbortSignal } = {}): Promise<SalesRefunds> {
  return apiRequest('/api/admin/sales/refunds', { schema: SalesRefundsSchema, signal });
}

export function useSalesRefunds() {
  return useQuery(queryOptions({ queryKey: ['admin', 'sales', 'refunds'], queryFn: ({ signal }) => getSalesRefunds({ signal }), staleTime: 0 }));
}

/** `GET /api/admin/sales/events`: Stripe events that gave up and nobody dismissed. */
export function getSalesAttentionEvents({ signal }: { signal?: AbortSignal } = {}): Promise<SalesAttentionEvents> {
  return apiRequest('/api/admin/sales/events', { schema: SalesAttentionEventsSchema, signal });
}

export function useSalesAttentionEvents() {
  return useQuery(queryOptions({ queryKey: ['admin', 'sales', 'events'], queryFn: ({ signal }) => getSalesAttentionEvents({ signal }), staleTime: 0 }));
}
