import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

export function getSiteInfo({ signal }: { signal?: AbortSignal } = {}): Promise<SiteInfo> {
  return apiRequest('/api/site', { schema: () => import('./schemas').then((schemas) => schemas.SiteInfoSchema), signal });
}

export function siteInfoQueryOptions() {
  return queryOptions({
    queryKey: ['site-info'],
    queryFn: ({ signal }) => getSiteInfo({ signal }),
    // Company details change rarely; keep them for the whole visit.
    staleTime: Infinity,
  });
}

export function useSiteInfo() {
  return useQuery(siteInfoQueryOptions());
}
