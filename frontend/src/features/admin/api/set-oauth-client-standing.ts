import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OAuthClientSchema, type OAuthClientStandingAction, type OAuthClientView } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { reportError } from '@/lib/report-error';
import { oauthClientsQueryOptions } from './get-oauth-clients';

/** `POST /oauth_clients/{id}/{verify|unverify|suspend|unsuspend}` (decision 0037): the app as it is now. */
export function setOAuthClientStanding({ id, action }: { id: string; action: OAuthClientStandingAction }): Promise<OAuthClientView> {
  return apiRequest(`/oauth_clients/${encodeURIComponent(id)}/${action}`, { method: 'POST', schema: OAuthClientSchema });
}

export function useSetOAuthClientStanding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setOAuthClientStanding,
    onError: (error) => {
      reportError('Error cambiando el estado de la aplicación', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: oauthClientsQueryOptions().queryKey }),
  });
}
