import { queryOptions, useQuery } from '@tanstack/react-query';
import { OAuthClientListSchema, type OAuthClientView } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

export const OAUTH_CLIENTS_QUERY_KEY = ['admin', 'oauth-clients'] as const;

/** `GET /oauth_clients` (admin): every registered app, never a secret. */
export function getOAuthClients({ signal }: { signal?: AbortSignal } = {}): Promise<OAuthClientView[]> {
  return apiRequest('/oauth_clients', { schema: OAuthClientListSchema, signal });
}

export function oauthClientsQueryOptions() {
  return queryOptions({
    queryKey: OAUTH_CLIENTS_QUERY_KEY,
    queryFn: ({ signal }) => getOAuthClients({ signal }),
  });
}

export function useOAuthClients() {
  return useQuery(oauthClientsQueryOptions());
}
