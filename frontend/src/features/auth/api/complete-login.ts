import { LoginSuccessSchema } from '@life/contracts';
import { saveSession } from '@/lib/session';

/** Provider path segments the callback page accepts (spec section 5). */
export const PROVIDER_SEGMENT = /^[A-Za-z0-9_-]+$/;
/** Where a successful sign-in goes when the server names no `returnTo`. */
export const DEFAULT_AFTER_LOGIN = '/dashboard';
/** The landing page's `login_error` when the server gave no code of its own (network failure, odd answer). */
export const FALLBACK_LOGIN_ERROR = 'provider_error';

export type LoginOutcome = { ok: true; returnTo: string } | { ok: false; error: string };

/** A path on this site: starts with one '/', never '//' or '/\' (which browsers treat as another host). */
export function isSafeReturnTo(value: unknown): value is string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value);
}

function errorCodeOf(body: unknown): string {
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string' && body.error) return body.error;
  return FALLBACK_LOGIN_ERROR;
}

/**
 * `GET /login/{provider}/callback?<the page's own query string>`: trades the provider's code
 * for a session. No bearer token; the login cookie (same origin) ties the answer to this browser.
 * On success the session (authToken, user) is stored before this resolves. Never rejects.
 */
export async function completeLogin(provider: string, search: string): Promise<LoginOutcome> {
  const query = search.startsWith('?') ? search : `?${search}`;
  let response: Response;
  try {
    response = await fetch(`/login/${encodeURIComponent(provider)}/callback${query}`, {
      method: 'GET',
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, error: FALLBACK_LOGIN_ERROR };
  }

  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }

  // Success is exactly: 200, authToken and user present, no error field (spec sections 4 and 5).
  const hasError = !!body && typeof body === 'object' && 'error' in body;
  if (response.status === 200 && !hasError) {
    const parsed = LoginSuccessSchema.safeParse(body);
    if (parsed.success && parsed.data.authToken) {
      const { authToken, user, returnTo } = parsed.data;
      saveSession(authToken, { id: user.id, username: user.username, email: user.email, role: user.role });
      return { ok: true, returnTo: isSafeReturnTo(returnTo) ? returnTo : DEFAULT_AFTER_LOGIN };
    }
  }
  return { ok: false, error: errorCodeOf(body) };
}

/**
 * One exchange per code for the life of the page: a code works only once, and React
 * StrictMode (or a remount) runs the page's effect twice. Later callers share the first answer.
 */
const exchanges = new Map<string, Promise<LoginOutcome>>();

export function completeLoginOnce(provider: string, search: string, code: string): Promise<LoginOutcome> {
  const key = `${provider}\n${code}`;
  let exchange = exchanges.get(key);
  if (!exchange) {
    exchange = completeLogin(provider, search);
    exchanges.set(key, exchange);
  }
  return exchange;
}
