import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { oauthClientsQueryOptions } from './get-oauth-clients';
import { reportError } from '@/lib/report-error';

/** `DELETE /oauth_clients/{id}` → 204. */
export async function deleteOAuthClient({ id }: { id: string }): Promise<void> {
  await apiRequest(`/oauth_clients/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteOAuthClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOAuthClient,
    onError: (error) => {
      reportError('Error eliminando la aplicación', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: oauthClientsQueryOptions().queryKey }),
  });
}
