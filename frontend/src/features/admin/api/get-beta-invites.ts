import { queryOptions, useQuery } from '@tanstack/react-query';
import { BetaInviteListSchema, type BetaInviteDto } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

/** `GET /beta-invites`: every invitation, newest first. */
export function getBetaInvites({ signal }: { signal?: AbortSignal } = {}): Promise<BetaInviteDto[]> {
  return apiRequest('/beta-invites', { schema: BetaInviteListSchema, signal });
}

export function betaInvitesQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'beta-invites'],
    queryFn: ({ signal }) => getBetaInvites({ signal }),
  });
}

export function useBetaInvites() {
  return useQuery(betaInvitesQueryOptions());
}
