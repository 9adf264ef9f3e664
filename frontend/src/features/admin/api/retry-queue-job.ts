import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { systemHealthQueryOptions } from './get-system-health';

export interface QueueJobRef {
  queue: string;
  id: string;
}

export const queueJobPath = ({ queue, id }: QueueJobRef) => `/api/admin/queues/${encodeURIComponent(queue)}/jobs/${encodeURIComponent(id)}`;

/** `POST /api/admin/queues/{queue}/jobs/{id}/retry` → 204: the failed job runs again. */
export async function retryQueueJob(job: QueueJobRef): Promise<void> {
  await apiRequest(`${queueJobPath(job)}/retry`, { method: 'POST' });
}

/** Success or not, the report is asked again: a job someone else already handled disappears too. */
export function useRetryQueueJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryQueueJob,
    onSettled: () => queryClient.invalidateQueries({ queryKey: systemHealthQueryOptions().queryKey }),
  });
}
