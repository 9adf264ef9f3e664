import { queryOptions, useQuery } from '@tanstack/react-query';
import { LoginProviderListSchema, type LoginProviderDto } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

/** `GET /api/login-providers`: every provider, secrets masked ('********' when stored, '' when none). */
export function getLoginProviders({ signal }: { signal?: AbortSignal } = {}): Promise<LoginProviderDto[]> {
  return apiRequest('/api/login-providers', { schema: LoginProviderListSchema, signal });
}

export function loginProvidersQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'login-providers'],
    queryFn: ({ signal }) => getLoginProviders({ signal }),
  });
}

export function useLoginProviders() {
  return useQuery(loginProvidersQueryOptions());
}
