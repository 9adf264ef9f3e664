import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ErasureAcceptedSchema, type EraseAccount, type ErasureAccepted } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { clearSession } from '@/lib/session';
import { reportError } from '@/lib/report-error';

/** `POST /api/users/me/erase` → 202: every session is revoked at once, the rest runs in the background. */
export function eraseAccount({ confirm }: EraseAccount): Promise<ErasureAccepted> {
  return apiRequest('/api/users/me/erase', { method: 'POST', body: { confirm }, schema: ErasureAcceptedSchema });
}

/** On success the server has already signed the person out: forget the session here too and go home, which says so. */
export function useEraseAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: eraseAccount,
    onSuccess: async () => {
      clearSession();
      queryClient.clear();
      await navigate({ to: '/', search: { notice: 'account_erased' } });
    },
    onError: (error) => {
      reportError('Error al eliminar la cuenta', error);
    },
  });
}
