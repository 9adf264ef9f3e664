import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DataExportSchema, type DataExport } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { dataExportQueryOptions } from './get-data-export';
import { reportError } from '@/lib/report-error';

/** `POST /api/users/me/export` → 202: a worker builds the file (or the export already under way). */
export function startDataExport(): Promise<DataExport> {
  return apiRequest('/api/users/me/export', { method: 'POST', schema: DataExportSchema });
}

export function useStartDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startDataExport,
    onSuccess: (dataExport) => queryClient.setQueryData(dataExportQueryOptions(dataExport.id).queryKey, dataExport),
    onError: (error) => {
      reportError('Error al pedir la exportación de datos', error);
    },
  });
}
