import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { betaInvitesQueryOptions } from './get-beta-invites';

/** `DELETE /beta-invites/{email}` → 204 (404 when there is no such invitation). */
export async function deleteBetaInvite({ email }: { email: string }): Promise<void> {
  await apiRequest(`/beta-invites/${encodeURIComponent(email)}`, { method: 'DELETE' });
}

export function useDeleteBetaInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBetaInvite,
    // Also after a failure (e.g. 404: someone else removed it): show what the server has now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: betaInvitesQueryOptions().queryKey }),
  });
}
