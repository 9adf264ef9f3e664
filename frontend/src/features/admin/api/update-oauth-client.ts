import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OAuthClientSchema, type OAuthClientView } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { oauthClientsQueryOptions } from './get-oauth-clients';
import { reportError } from '@/lib/report-error';

/** `PUT /oauth_clients/{id}` with the full app object as the dialog edited it (spec section 7). */
export function updateOAuthClient(client: OAuthClientView): Promise<OAuthClientView> {
  return apiRequest(`/oauth_clients/${encodeURIComponent(client.id)}`, { method: 'PUT', body: client, schema: OAuthClientSchema });
}

/** Spec section 8: a failure is logged as 'Error guardando datos' and shown in the dialog. */
export function useUpdateOAuthClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOAuthClient,
    onError: (error) => {
      reportError('Error guardando datos', error);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: oauthClientsQueryOptions().queryKey }),
  });
}
