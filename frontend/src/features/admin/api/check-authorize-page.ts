import type { OAuthClientView } from '@life/contracts';
import { languageHeaders } from '@/lib/api-client';
import { getAuthToken } from '@/lib/session';

/** What Autorizar asks for (spec sections 7 and 9). */
export const AUTHORIZE_TEST_SCOPE = 'read';
export const AUTHORIZE_TEST_STATE = 'appconnect';

/**
 * The consent page for an app: its first redirect URI, scope read, state appconnect, and
 * `prompt=consent`, so it always asks even when the admin already allowed the app (decision 0025).
 */
export function authorizePageUrl(client: Pick<OAuthClientView, 'client_id' | 'redirect_uri' | 'redirect_uris'>): string {
  const params = new URLSearchParams({ client_id: client.client_id });
  const redirectUri = client.redirect_uri || client.redirect_uris[0];
  if (redirectUri) params.set('redirect_uri', redirectUri);
  params.set('scope', AUTHORIZE_TEST_SCOPE);
  params.set('state', AUTHORIZE_TEST_STATE);
  params.set('prompt', 'consent');
  return `/oauth/authorize?${params.toString()}`;
}

/** The reason of a failed answer: the server's `message` when it sent JSON, else the status. */
async function failureMessage(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // An HTML or empty error page: the status says enough.
  }
  return response.statusText ? `${response.status} ${response.statusText}` : `HTTP ${response.status}`;
}

/**
 * Autorizar's first step: `GET` the consent page accepting HTML (as a browser would), so a
 * backend that cannot be reached is reported before the dialog opens. Rejects with the reason.
 */
export async function checkAuthorizePage(url: string): Promise<void> {
  const headers: Record<string, string> = { Accept: 'text/html', ...languageHeaders() };
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url, { method: 'GET', headers });
  if (!response.ok) throw new Error(await failureMessage(response));
}
