import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';
import { reportError } from '@/lib/report-error';

/** `GET /api/users/me/export/{id}/download`: the JSON file, saved by the browser. */
export async function downloadDataExport({ id }: { id: string }): Promise<void> {
  const file = await apiDownload(`/api/users/me/export/${encodeURIComponent(id)}/download`);
  saveFile(file.blob, file.filename ?? 'life-datos.json');
}

export function useDownloadDataExport() {
  return useMutation({
    mutationFn: downloadDataExport,
    onError: (error) => {
      reportError('Error al descargar la exportación de datos', error);
    },
  });
}
