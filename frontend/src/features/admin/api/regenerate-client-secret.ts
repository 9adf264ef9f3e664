import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OAuthClientWithSecretSchema, type OAuthClientWithSecret } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { oauthClientsQueryOptions } from './get-oauth-clients';
import { reportError } from '@/lib/report-error';

/** `POST /oauth_clients/{id}/secret`: a new secret, shown once; the old one stops working. */
export function regenerateClientSecret({ id }: { id: string }): Promise<OAuthClientWithSecret> {
  return apiRequest(`/oauth_clients/${encodeURIComponent(id)}/secret`, { method: 'POST', schema: OAuthClientWithSecretSchema });
}

export function useRegenerateClientSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateClientSecret,
    onError: (error) => {
      reportError('Error regenerando el secreto', error);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: oauthClientsQueryOptions().queryKey }),
  });
}
