import { queryOptions, useQuery } from '@tanstack/react-query';
import { AuthorizeAnswerSchema, type AuthorizeAnswer } from '@life/contracts';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client';
import { useSession } from '@/lib/session';

/**
 * `GET /oauth/authorize?<the page's own query string>` as JSON, with the session's bearer token
 * when there is one (decision 0033): the app's name and the requested scopes with their
 * descriptions, whether the person must sign in (again) first, or `redirect_to` when the server
 * answers without a question (remembered consent, prompt=none, an OIDC error for the app). An
 * unknown client, a bad redirect URI or scope answers 4xx with a message for people.
 */
export function getConsentInfo(search: string, { signal }: { signal?: AbortSignal } = {}): Promise<AuthorizeAnswer> {
  // A token the server no longer knows is not a 401 here: the answer says to sign in.
  return apiRequest(`/oauth/authorize${search}`, { schema: AuthorizeAnswerSchema, signal, ignoreUnauthorized: true });
}

/**
 * The answer's texts (errors, what each permission means) are in the asked language, and it
 * depends on who is signed in: both are part of the key.
 */
export function consentInfoQueryOptions(search: string, language: string, signedIn: boolean) {
  return queryOptions({
    queryKey: ['oauth', 'consent', search, language, signedIn],
    queryFn: ({ signal }) => getConsentInfo(search, { signal }),
    // One request per page: the answer does not change while the person decides (and a code is single use).
    staleTime: Infinity,
    // While the same request is fetched in a newly chosen language, the screen keeps the last answer.
    placeholderData: (previous) => previous,
  });
}

export function useConsentInfo(search: string) {
  const { i18n } = useTranslation();
  const { isSignedIn } = useSession();
  return useQuery(consentInfoQueryOptions(search, i18n.language, isSignedIn));
}
