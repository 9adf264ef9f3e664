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

/**
 * A path on this site (not `//host` nor `/\host`, which browsers read as another origin): the only
 * places a sign-in may come back to. The server checks it again (`LoginStartQuerySchema`).
 */
export function isSitePath(value: unknown): value is string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(value);
}

/** Sends the browser to the provider; after signing in it comes back to `returnTo` (a path on this site) or /dashboard. */
export function startLogin(provider: LoginProviderName, returnTo?: string): void {
  window.location.assign(loginPath(provider, isSitePath(returnTo) ? returnTo : undefined));
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
