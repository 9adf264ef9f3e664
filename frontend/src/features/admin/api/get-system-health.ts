import { queryOptions, useQuery } from '@tanstack/react-query';
import { SystemHealthSchema, type SystemHealth } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

/** How often the Salud section asks again while it is on screen (paused while the tab is hidden). */
export const SYSTEM_HEALTH_REFRESH_MS = 5000;

/** `GET /api/admin/health`: database, Redis, queues, workers, token-refresh failures, version and uptime. */
export function getSystemHealth({ signal }: { signal?: AbortSignal } = {}): Promise<SystemHealth> {
  return apiRequest('/api/admin/health', { schema: SystemHealthSchema, signal });
}

export function systemHealthQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'system-health'],
    queryFn: ({ signal }) => getSystemHealth({ signal }),
    refetchInterval: SYSTEM_HEALTH_REFRESH_MS,
    // A live view: what was fetched a moment ago is already old.
    staleTime: 0,
  });
}

export function useSystemHealth() {
  return useQuery(systemHealthQueryOptions());
}
