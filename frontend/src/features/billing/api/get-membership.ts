import { queryOptions, useQuery } from '@tanstack/react-query';
import { MembershipAnswerSchema, type LateRefund, type Membership } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { BILLING_QUERY_KEY } from './query-keys';

/** How often the membership is asked for again while a finished checkout waits for Stripe's confirmation. */
export const MEMBERSHIP_POLL_MS = 2_000;

export interface MembershipAnswer {
  membership: Membership | null;
  lateRefund: LateRefund | null;
}

/** `GET /api/billing/membership`: the signed-in person's lifetime edition, or null, and a late checkout's refund, if any. */
export async function getMembershipAnswer({ signal }: { signal?: AbortSignal } = {}): Promise<MembershipAnswer> {
  const answer = await apiRequest('/api/billing/membership', { schema: MembershipAnswerSchema, signal });
  return { membership: answer.membership, lateRefund: answer.late_refund ?? null };
}

/** The signed-in person's lifetime edition, or null. */
export async function getMembership({ signal }: { signal?: AbortSignal } = {}): Promise<Membership | null> {
  return (await getMembershipAnswer({ signal })).membership;
}

export function membershipQueryOptions() {
  return queryOptions({
    queryKey: [...BILLING_QUERY_KEY, 'membership'],
    queryFn: ({ signal }) => getMembershipAnswer({ signal }),
  });
}

/**
 * `poll`: ask again every 2 s until a membership is there (the webhook may land after the return
 * from Stripe), or the checkout turned out too late and is being refunded.
 * `follow`: ask again every 2 s while true (back from the customer portal: a change may be on its way).
 */
export function useMembership({ poll = false, follow = false }: { poll?: boolean; follow?: boolean } = {}) {
  return useQuery({
    ...membershipQueryOptions(),
    select: (answer) => answer.membership,
    refetchInterval: (query) => ((poll && !query.state.data?.membership && !query.state.data?.lateRefund) || follow ? MEMBERSHIP_POLL_MS : false),
  });
}

/** A checkout that completed after the last seat went: its automatic refund (same request as the membership). */
export function useLateRefund() {
  return useQuery({ ...membershipQueryOptions(), select: (answer) => answer.lateRefund });
}
