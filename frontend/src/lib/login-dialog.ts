import { useSyncExternalStore } from 'react';

/**
 * Whether the login dialog is open, so code outside the header (e.g. a landing cart button
 * pressed while signed out) can open it. The dialog itself lives in the header and is only
 * rendered while signed out.
 */
let open = false;
const listeners = new Set<() => void>();

export function setLoginDialogOpen(value: boolean): void {
  if (open === value) return;
  open = value;
  for (const listener of listeners) listener();
}

export function openLoginDialog(): void {
  setLoginDialogOpen(true);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useLoginDialogOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => false,
  );
}
