import { queryOptions, useQuery } from '@tanstack/react-query';
import { UserProfileSchema, type UserProfile } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

/** `GET /api/users/me`: the signed-in person. */
export function getProfile({ signal }: { signal?: AbortSignal } = {}): Promise<UserProfile> {
  return apiRequest('/api/users/me', { schema: UserProfileSchema, signal });
}

export function profileQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'me'],
    queryFn: ({ signal }) => getProfile({ signal }),
  });
}

export function useProfile() {
  return useQuery(profileQueryOptions());
}
