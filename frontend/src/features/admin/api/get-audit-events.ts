import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { AuditPageSchema, type AuditPage } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

export const AUDIT_PAGE_SIZE = 50;

/** `GET /api/admin/audit?limit=&before=`: the audit log, newest first, one page at a time. */
export function getAuditEvents({ before, signal }: { before?: string; signal?: AbortSignal } = {}): Promise<AuditPage> {
  const query = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
  if (before) query.set('before', before);
  return apiRequest(`/api/admin/audit?${query.toString()}`, { schema: AuditPageSchema, signal });
}

export function auditEventsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: ['admin', 'audit'],
    queryFn: ({ pageParam, signal }) => getAuditEvents({ before: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
    staleTime: 0,
  });
}

export function useAuditEvents() {
  return useInfiniteQuery(auditEventsQueryOptions());
}
