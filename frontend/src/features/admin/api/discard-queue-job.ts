import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { systemHealthQueryOptions } from './get-system-health';
import { queueJobPath, type QueueJobRef } from './retry-queue-job';

/** `DELETE /api/admin/queues/{queue}/jobs/{id}` → 204: the failed job is gone for good. */
export async function discardQueueJob(job: QueueJobRef): Promise<void> {
  await apiRequest(queueJobPath(job), { method: 'DELETE' });
}

export function useDiscardQueueJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: discardQueueJob,
    onSettled: () => queryClient.invalidateQueries({ queryKey: systemHealthQueryOptions().queryKey }),
  });
}
