import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConsentDecisionSchema, type CONSENT_ACTIONS, type ConsentDecision } from '@life/contracts';
import { ApiError, apiRequest } from '@/lib/api-client';
import { APP_GRANTS_QUERY_KEY } from '@/lib/app-grants';
import { clearSession } from '@/lib/session';
import { reportError } from '@/lib/report-error';

export type ConsentAction = (typeof CONSENT_ACTIONS)[number];

/**
 * The authorization request's parameters the consent POST carries back (whichever the page has):
 * prompt, max_age and login_ticket too, so the server checks the answer by the same rules as the
 * question; request_uri for a pushed request (RFC 9126).
 */
export const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'dpop_jkt',
  'request_uri',
  'prompt',
  'max_age',
  'login_ticket',
] as const;

/** The page's authorization parameters, as they came in the query string. */
export function authorizeParamsOf(search: string): Record<string, string> {
  const query = new URLSearchParams(search);
  const params: Record<string, string> = {};
  for (const name of AUTHORIZE_PARAMS) {
    const value = query.get(name);
    if (value !== null) params[name] = value;
  }
  return params;
}

/**
 * `POST /oauth/authorize` (bearer) with the request's parameters and `action` → `{ redirect_to }`,
 * where the browser then goes with a GET. A 401 (the session ended) signs the person out here,
 * so the page asks them to sign in again instead of leaving the request.
 */
export async function decideConsent({ params, action }: { params: Record<string, string>; action: ConsentAction }): Promise<ConsentDecision> {
  try {
    return await apiRequest('/oauth/authorize', { method: 'POST', body: { ...params, action }, schema: ConsentDecisionSchema, ignoreUnauthorized: true });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) clearSession();
    throw error;
  }
}

export function useDecideConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideConsent,
    onError: (error) => {
      reportError('Error enviando la respuesta a la solicitud de acceso', error);
    },
    // Allowing creates or widens a grant: the profile's list must not show the old one.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: APP_GRANTS_QUERY_KEY }),
  });
}
