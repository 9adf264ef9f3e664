import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { systemHealthQueryOptions } from './get-system-health';

const stripeEventPath = (id: string) => `/api/admin/stripe-events/${encodeURIComponent(id)}`;

/** `POST /api/admin/stripe-events/{id}/retry` → 204: a Stripe event that gave up is applied again. */
export async function retryStripeEvent(id: string): Promise<void> {
  await apiRequest(`${stripeEventPath(id)}/retry`, { method: 'POST' });
}

/** `POST /api/admin/stripe-events/{id}/dismiss` → 204: kept, never applied, no longer needing attention. */
export async function dismissStripeEvent(id: string): Promise<void> {
  await apiRequest(`${stripeEventPath(id)}/dismiss`, { method: 'POST' });
}

/** Success or not, the report is asked again: an event someone else already handled disappears too. */
export function useRetryStripeEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryStripeEvent,
    onSettled: () => queryClient.invalidateQueries({ queryKey: systemHealthQueryOptions().queryKey }),
  });
}

export function useDismissStripeEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissStripeEvent,
    onSettled: () => queryClient.invalidateQueries({ queryKey: systemHealthQueryOptions().queryKey }),
  });
}
