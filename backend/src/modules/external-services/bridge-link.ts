import { outboundFetch, type OutboundFetch } from '../../core/http/outbound-fetch.js';

/**
 * Philips Hue's remote API (decision 0041): an OAuth token alone reaches the bridge but cannot use
 * it. The app presses the bridge's link button remotely and then creates a bridge user, whose name
 * is the application key every CLIP v2 call carries in `hue-application-key`:
 *
 *   PUT  {base}/route/api/0/config  {"linkbutton":true}         (Authorization: Bearer <token>)
 *   POST {base}/route/api           {"devicetype":"life#<id>"}  → [{"success":{"username":"<key>"}}]
 *                                                                  or [{"error":{"type":101,...}}]
 */
export const HUE_KEY_HEADER = 'hue-application-key';

export class BridgeLinkError extends Error {
  constructor(readonly reason: string) {
    super(`bridge link: ${reason}`);
  }
}

type HueAnswer = { success?: Record<string, unknown>; error?: { type?: number; description?: string } }[];

async function call(fetch: OutboundFetch, url: string, method: 'PUT' | 'POST', accessToken: string, body: unknown): Promise<HueAnswer> {
  let response: Response;
  try {
    // No redirect is followed: the bearer token goes to the catalog's Hue host only.
    response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new BridgeLinkError('no answer');
  }
  if (!response.ok) throw new BridgeLinkError(`HTTP ${response.status}`);
  const answer = (await response.json().catch(() => null)) as unknown;
  if (!Array.isArray(answer)) throw new BridgeLinkError('unexpected answer');
  const error = (answer as HueAnswer).find((entry) => entry.error)?.error;
  if (error) throw new BridgeLinkError(`error ${error.type ?? '?'} (${String(error.description ?? '').slice(0, 80)})`);
  return answer as HueAnswer;
}

/** Presses the link button remotely and creates the bridge user: its name is the application key. */
export async function linkHueBridge(baseUrl: string, accessToken: string, deviceType: string, allowPrivate: boolean): Promise<string> {
  const base = baseUrl.replace(/\/+$/, '');
  // The address connected to is checked like every provider call (decision 0050).
  const fetch = outboundFetch(allowPrivate);
  await call(fetch, `${base}/route/api/0/config`, 'PUT', accessToken, { linkbutton: true });
  const answer = await call(fetch, `${base}/route/api`, 'POST', accessToken, { devicetype: deviceType.slice(0, 40) });
  const username = answer.find((entry) => typeof entry.success?.username === 'string')?.success?.username;
  if (typeof username !== 'string' || !username) throw new BridgeLinkError('no username in the answer');
  return username;
}
