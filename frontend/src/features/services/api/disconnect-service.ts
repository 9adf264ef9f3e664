import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DisconnectResultSchema } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { SERVICES_QUERY_KEY } from '@/shared/services/api/get-services';
import { reportError } from '@/lib/report-error';

/**
 * `DELETE /api/external-services/{service_name}/connection` → `{ service, revoked_at_provider, finish_at }`:
 * revokes at the provider where it can and deletes this person's tokens. `finish_at` is where the
 * person removes Life's access by hand when the provider has no revocation endpoint.
 */
export function disconnectService(serviceName: string) {
  return apiRequest(`/api/external-services/${encodeURIComponent(serviceName)}/connection`, { method: 'DELETE', schema: DisconnectResultSchema });
}

export function useDisconnectService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectService,
    onError: (error) => {
      reportError('Error al desconectar el servicio', error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: SERVICES_QUERY_KEY }),
  });
}
