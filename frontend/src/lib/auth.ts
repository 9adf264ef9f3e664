import type { LoginProviderName } from '@life/contracts';
import { apiRequest } from './api-client';
import { clearSession, getAuthToken } from './session';

/**
 * Login starts on the backend (same origin), which redirects to the identity provider.
 * `returnTo` (a path on this site) is where the sign-in comes back to instead of /dashboard.
 */
export function loginPath(provider: LoginProviderName, returnTo?: string): string {
  const path = `/login/${provider}`;
  return returnTo ? `${path}?returnTo=${encodeURIComponent(returnTo)}` : path;
}

export function startLogin(provider: LoginProviderName): void {
  window.location.assign(loginPath(provider));
}

/**
 * Tells the server (best effort: failures are ignored), then forgets the session locally.
 * `navigateHome` is the router's navigation to `/`.
 */
export async function logout(navigateHome: () => void | Promise<void>): Promise<void> {
  if (getAuthToken()) {
    try {
      await apiRequest('/api/auth/logout', { method: 'POST', ignoreUnauthorized: true });
    } catch {
      // The local session is cleared regardless.
    }
  }
  clearSession();
  await navigateHome();
}
