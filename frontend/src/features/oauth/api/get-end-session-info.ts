import { useQuery } from '@tanstack/react-query';
import { EndSessionInfoSchema, type EndSessionInfo } from '@life/contracts';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client';

/**
 * `GET /oauth/logout?<the page's own query string>` as JSON, without the bearer token
 * (OpenID Connect RP-Initiated Logout 1.0, decision 0034): the app asking, and where to go after
 * signing out (its registered post_logout_redirect_uri with state) or null. A bad hint, an
 * unknown app or an unregistered URI answers 4xx with a message for people.
 */
export function getEndSessionInfo(search: string, { signal }: { signal?: AbortSignal } = {}): Promise<EndSessionInfo> {
  return apiRequest(`/oauth/logout${search}`, { auth: false, schema: EndSessionInfoSchema, signal });
}

export function useEndSessionInfo(search: string) {
  const { i18n } = useTranslation();
  return useQuery({
    // The error texts are in the asked language, so it is part of the key.
    queryKey: ['oauth', 'end-session', search, i18n.language],
    queryFn: ({ signal }) => getEndSessionInfo(search, { signal }),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
}
