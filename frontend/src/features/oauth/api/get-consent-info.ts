import { queryOptions, useQuery } from '@tanstack/react-query';
import { ConsentInfoSchema, type ConsentInfo } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * `GET /oauth/authorize?<the page's own query string>` as JSON, without the bearer token (spec
 * section 7): the app's name and the requested scopes with their descriptions. An unknown
 * client, a bad redirect URI or scope answers 4xx with a message for people.
 */
export function getConsentInfo(search: string, { signal }: { signal?: AbortSignal } = {}): Promise<ConsentInfo> {
  return apiRequest(`/oauth/authorize${search}`, { auth: false, schema: ConsentInfoSchema, signal });
}

export function consentInfoQueryOptions(search: string) {
  return queryOptions({
    queryKey: ['oauth', 'consent', search],
    queryFn: ({ signal }) => getConsentInfo(search, { signal }),
    // One request per page: the answer does not change while the person decides.
    staleTime: Infinity,
  });
}

export function useConsentInfo(search: string) {
  return useQuery(consentInfoQueryOptions(search));
}
