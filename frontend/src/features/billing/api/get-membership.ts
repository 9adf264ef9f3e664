import { queryOptions, useQuery } from '@tanstack/react-query';
import { MembershipAnswerSchema, type Membership } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { BILLING_QUERY_KEY } from './query-keys';

/** How often the membership is asked for again while a finished checkout waits for Stripe's confirmation. */
export const MEMBERSHIP_POLL_MS = 2_000;

/** `GET /api/billing/membership`: the signed-in person's lifetime edition, or null. */
export async function getMembership({ signal }: { signal?: AbortSignal } = {}): Promise<Membership | null> {
  const answer = await apiRequest('/api/billing/membership', { schema: MembershipAnswerSchema, signal });
  return answer.membership;
}

export function membershipQueryOptions() {
  return queryOptions({
    queryKey: [...BILLING_QUERY_KEY, 'membership'],
    queryFn: ({ signal }) => getMembership({ signal }),
  });
}

/**
 * `poll`: ask again every 2 s until a membership is there (the webhook may land after the return from Stripe).
 * `follow`: ask again every 2 s while true (back from the customer portal: a change may be on its way).
 */
export function useMembership({ poll = false, follow = false }: { poll?: boolean; follow?: boolean } = {}) {
  return useQuery({
    ...membershipQueryOptions(),
    refetchInterval: (query) => ((poll && !query.state.data) || follow ? MEMBERSHIP_POLL_MS : false),
  });
}
