import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OAuthClientWithSecretSchema, type CreateOAuthClient, type OAuthClientWithSecret } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { oauthClientsQueryOptions } from './get-oauth-clients';
import { reportError } from '@/lib/report-error';

/** `POST /oauth_clients` → 201 with the client secret, the only time it is shown (null for public apps). */
export function createOAuthClient(fields: CreateOAuthClient): Promise<OAuthClientWithSecret> {
  return apiRequest('/oauth_clients', { method: 'POST', body: fields, schema: OAuthClientWithSecretSchema });
}

/** The list is refetched rather than fed the answer, so the secret never sits in the query cache. */
export function useCreateOAuthClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOAuthClient,
    onError: (error) => {
      reportError('Error guardando datos', error);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: oauthClientsQueryOptions().queryKey }),
  });
}
