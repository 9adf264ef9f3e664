import { useMutation } from '@tanstack/react-query';
import type { SalesMembersFilter } from '@life/contracts';
import { apiDownload } from '@/lib/api-client';
import { reportError } from '@/lib/report-error';
import { saveFile } from '@/lib/save-file';
import { salesFilterSearch } from './get-sales';

/** `GET /api/admin/sales/members.csv?edition=&status=&q=`: every matching member, saved as a CSV file. */
export async function exportSalesMembers(filter: SalesMembersFilter): Promise<void> {
  const search = salesFilterSearch(filter);
  const file = await apiDownload(`/api/admin/sales/members.csv${search ? `?${search}` : ''}`);
  saveFile(file.blob, file.filename ?? 'members.csv');
}

export function useExportSalesMembers() {
  return useMutation({
    mutationFn: exportSalesMembers,
    onError: (error) => reportError('Error al exportar los miembros', error),
  });
}
