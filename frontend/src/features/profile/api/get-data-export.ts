import { queryOptions, useQuery } from '@tanstack/react-query';
import { DataExportSchema, type DataExport } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

/** How often the page asks whether the file is ready. */
export const DATA_EXPORT_POLL_MS = 1500;

const inProgress = (dataExport: DataExport | undefined) => dataExport?.status === 'pending' || dataExport?.status === 'running';

/** `GET /api/users/me/export/{id}`: the state of one export. */
export function getDataExport(id: string, { signal }: { signal?: AbortSignal } = {}): Promise<DataExport> {
  return apiRequest(`/api/users/me/export/${encodeURIComponent(id)}`, { schema: DataExportSchema, signal });
}

export function dataExportQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['users', 'me', 'export', id],
    queryFn: ({ signal }) => getDataExport(id, { signal }),
    staleTime: 0,
    // Asks again until the worker is done.
    refetchInterval: (query) => (inProgress(query.state.data) ? DATA_EXPORT_POLL_MS : false),
  });
}

export function useDataExport(id: string | undefined) {
  return useQuery({ ...dataExportQueryOptions(id ?? ''), enabled: id !== undefined });
}
