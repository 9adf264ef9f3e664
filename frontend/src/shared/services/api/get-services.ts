import { queryOptions, useQuery } from '@tanstack/react-query';
import { ExternalServiceListSchema, type ExternalServiceDto } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

/** `GET /api/external-services/all`: the catalog with this person's connection state (secrets masked). */
export function getServices({ signal }: { signal?: AbortSignal } = {}): Promise<ExternalServiceDto[]> {
  return apiRequest('/api/external-services/all', { schema: ExternalServiceListSchema, signal });
}

export const SERVICES_QUERY_KEY = ['services'] as const;

export function servicesQueryOptions() {
  return queryOptions({
    queryKey: [...SERVICES_QUERY_KEY, 'all'],
    queryFn: ({ signal }) => getServices({ signal }),
    // Spec section 8: a failed list stops the spinner at once and leaves the list empty.
    retry: false,
  });
}

/** Spec section 8: a failure is only logged ('Error cargando servicios'); callers show an empty list. */
export function useServices() {
  return useQuery(servicesQueryOptions());
}
