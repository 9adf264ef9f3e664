import { SessionUserSchema } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { saveSession } from '@/lib/session';
import { reportError } from '@/lib/report-error';

/** Service path segments the callback page accepts (spec section 5). */
export const SERVICE_SEGMENT = /^[A-Za-z0-9_-]+$/;

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Whether the backend's answer to `GET /callback/{service}` is a success (spec section 5):
 * - githublogin: `authToken` present and no `error` field (the session is stored, like a login);
 * - spotify: `user` present and no `error` field;
 * - every other service: the spec names no rule, and our backend answers
 *   `{ service, connected: true, account_name, user }`, so success is `connected === true`,
 *   `user` present and no `error` field.
 * Anything else is a failure.
 */
export function isConnectionSuccess(service: string, answer: unknown): boolean {
  const body = asRecord(answer);
  if (!body || 'error' in body) return false;
  if (service === 'githublogin') return typeof body.authToken === 'string' && body.authToken !== '';
  if (service === 'spotify') return !!body.user;
  return body.connected === true && !!body.user;
}

/**
 * `GET /callback/{service}?<the page's own query string>` with `Accept: application/json` and the
 * bearer token: trades the provider's code for a connection. Resolves to true on success; never rejects.
 */
export async function completeConnection(service: string, search: string): Promise<boolean> {
  const query = search.startsWith('?') ? search : `?${search}`;
  let answer: unknown;
  try {
    answer = await apiRequest(`/callback/${encodeURIComponent(service)}${query}`, { headers: { Accept: 'application/json' } });
  } catch (error) {
    reportError('Error al completar la conexión con el servicio', error);
    return false;
  }
  if (!isConnectionSuccess(service, answer)) return false;
  if (service === 'githublogin') {
    // A login through the service: store the session as the login callback does.
    const body = asRecord(answer)!;
    const user = SessionUserSchema.safeParse(body.user);
    if (user.success) saveSession(body.authToken as string, user.data);
  }
  return true;
}

/**
 * One exchange per code for the life of the page: a code works only once, and React StrictMode
 * (or a remount) runs the page's effect twice. Later callers share the first answer.
 */
const exchanges = new Map<string, Promise<boolean>>();

export function completeConnectionOnce(service: string, search: string, code: string): Promise<boolean> {
  const key = `${service}\n${code}`;
  let exchange = exchanges.get(key);
  if (!exchange) {
    exchange = completeConnection(service, search);
    exchanges.set(key, exchange);
  }
  return exchange;
}
