import { queryOptions, useQuery } from '@tanstack/react-query';
import { ConsentInfoSchema, type ConsentInfo } from '@life/contracts';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client';

/**
 * `GET /oauth/authorize?<the page's own query string>` as JSON, without the bearer token (spec
 * section 7): the app's name and the requested scopes with their descriptions. An unknown
 * client, a bad redirect URI or scope answers 4xx with a message for people.
 */
export function getConsentInfo(search: string, { signal }: { signal?: AbortSignal } = {}): Promise<ConsentInfo> {
  return apiRequest(`/oauth/authorize${search}`, { auth: false, schema: ConsentInfoSchema, signal });
}

/** The answer's texts (errors, what each permission means) are in the asked language, so it is part of the key. */
export function consentInfoQueryOptions(search: string, language: string) {
  return queryOptions({
    queryKey: ['oauth', 'consent', search, language],
    queryFn: ({ signal }) => getConsentInfo(search, { signal }),
    // One request per page: the answer does not change while the person decides.
    staleTime: Infinity,
    // While the same request is fetched in a newly chosen language, the screen keeps the last answer.
    placeholderData: (previous) => previous,
  });
}

export function useConsentInfo(search: string) {
  const { i18n } = useTranslation();
  return useQuery(consentInfoQueryOptions(search, i18n.language));
}
