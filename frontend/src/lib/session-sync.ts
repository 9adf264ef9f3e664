import { useEffect } from 'react';
import { apiRequest } from './api-client';
import { parseStoredUser, toSessionUser, updateStoredUser, useSession } from './session';
import { readItem } from './local-store';
import { STORAGE_KEYS } from './contract-constants';

/**
 * Keeps the stored user (the header's name, the role) true to the server. Another tab of this
 * browser that renames the person writes local storage, and the `storage` event already updates
 * this one (see `subscribeToStorage`); a rename made elsewhere (another browser, a phone, an admin)
 * is picked up by asking `GET /api/users/me` when the page loads and whenever the window comes
 * back into view. Failures are silent: the next focus asks again.
 */
export async function refreshStoredUser(signal?: AbortSignal): Promise<void> {
  const answer = toSessionUser(await apiRequest('/api/users/me', { ignoreUnauthorized: true, signal }));
  const stored = parseStoredUser(readItem(STORAGE_KEYS.user));
  if (!answer || !stored || answer.id !== stored.id) return;
  if (answer.username === stored.username && answer.email === stored.email && answer.role === stored.role) return;
  updateStoredUser({ username: answer.username, email: answer.email, role: answer.role });
}

export function useStoredUserRefresh(): void {
  const { isSignedIn } = useSession();
  useEffect(() => {
    if (!isSignedIn) return;
    const controller = new AbortController();
    let pending: Promise<void> | null = null;
    const refresh = () => {
      if (pending || document.visibilityState === 'hidden') return;
      pending = refreshStoredUser(controller.signal)
        .catch(() => undefined)
        .finally(() => {
          pending = null;
        });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    refresh();
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      controller.abort();
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [isSignedIn]);
}
