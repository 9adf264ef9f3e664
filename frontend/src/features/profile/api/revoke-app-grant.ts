import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { APP_GRANTS_QUERY_KEY } from '@/lib/app-grants';
import { reportError } from '@/lib/report-error';

/** `DELETE /api/users/me/apps/{id}` → 204: the grant and every token issued under it are revoked. */
export async function revokeAppGrant({ id }: { id: string }): Promise<void> {
  await apiRequest(`/api/users/me/apps/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRevokeAppGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAppGrant,
    onError: (error) => {
      reportError('Error revocando el acceso de la aplicación', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: APP_GRANTS_QUERY_KEY }),
  });
}
