/**
 * A tiny observable wrapper over localStorage. Writes made through it notify
 * subscribers in this tab; the browser's `storage` event covers other tabs.
 */
const LOCAL_CHANGE_EVENT = 'life:local-storage';

type Listener = () => void;

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    // Access can throw when storage is disabled (privacy modes, sandboxed iframes).
    return undefined;
  }
}

export function readItem(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function notify(): void {
  window.dispatchEvent(new Event(LOCAL_CHANGE_EVENT));
}

export function writeItem(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // Quota or disabled storage: the preference just does not persist.
  }
  notify();
}

export function removeItems(...keys: string[]): void {
  for (const key of keys) {
    try {
      storage()?.removeItem(key);
    } catch {
      // Nothing to clean up if storage is unavailable.
    }
  }
  notify();
}

export function subscribeToStorage(listener: Listener): () => void {
  window.addEventListener(LOCAL_CHANGE_EVENT, listener);
  window.addEventListener('storage', listener);
  return () => {
    window.removeEventListener(LOCAL_CHANGE_EVENT, listener);
    window.removeEventListener('storage', listener);
  };
}
