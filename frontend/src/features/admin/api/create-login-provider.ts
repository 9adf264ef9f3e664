import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginProviderInput } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { loginProvidersQueryOptions } from './get-login-providers';

/** Every field of a provider as the form sends it (`app_secret`: '********' keeps the stored one, '' means none). */
export type LoginProviderFields = Omit<LoginProviderInput, 'id'>;

/** `POST /api/login-providers` with all provider fields → 201. The answer's body is not read. */
export async function createLoginProvider(fields: LoginProviderFields): Promise<void> {
  await apiRequest('/api/login-providers', { method: 'POST', body: fields });
}

/** Spec section 8: a failed save is only logged; the list is refreshed either way. */
export function useCreateLoginProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLoginProvider,
    onError: (error) => {
      console.error('Error al guardar el login provider', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: loginProvidersQueryOptions().queryKey }),
  });
}
