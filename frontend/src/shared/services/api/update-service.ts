import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ExternalServiceSchema, type ExternalServiceDto } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { SERVICES_QUERY_KEY } from './get-services';
import { reportError } from '@/lib/report-error';

/** `PUT /api/external-services/{id}` (admin) with the full service object as the dialog edited it. */
export function updateService(service: ExternalServiceDto): Promise<ExternalServiceDto> {
  return apiRequest(`/api/external-services/${encodeURIComponent(service.id)}`, { method: 'PUT', body: service, schema: ExternalServiceSchema });
}

/** Spec section 8: a failure is logged as 'Error guardando datos' and shown in the dialog. */
export function useUpdateService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateService,
    onError: (error) => {
      reportError('Error guardando datos', error);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVICES_QUERY_KEY }),
  });
}
