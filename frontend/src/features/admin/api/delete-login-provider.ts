import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { loginProvidersQueryOptions } from './get-login-providers';

/** `DELETE /api/login-providers/{id}` → 204. */
export async function deleteLoginProvider({ id }: { id: string }): Promise<void> {
  await apiRequest(`/api/login-providers/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Spec section 8: a failed delete is only logged; the list is refreshed either way. */
export function useDeleteLoginProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLoginProvider,
    onError: (error) => {
      console.error('Error al eliminar el login provider', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: loginProvidersQueryOptions().queryKey }),
  });
}
