import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { LoginProviderFields } from './create-login-provider';
import { loginProvidersQueryOptions } from './get-login-providers';

/** `PUT /api/login-providers/{id}` with the provider fields → 200. The answer's body is not read. */
export async function updateLoginProvider({ id, fields }: { id: string; fields: LoginProviderFields }): Promise<void> {
  await apiRequest(`/api/login-providers/${encodeURIComponent(id)}`, { method: 'PUT', body: fields });
}

/** Spec section 8: a failed save is only logged; the list is refreshed either way. */
export function useUpdateLoginProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLoginProvider,
    onError: (error) => {
      console.error('Error al guardar el login provider', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: loginProvidersQueryOptions().queryKey }),
  });
}
