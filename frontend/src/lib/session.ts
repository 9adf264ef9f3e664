import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS, SessionUserSchema, type SessionUser } from '@life/contracts';
import { readItem, removeItems, subscribeToStorage, writeItem } from './local-store';

export interface Session {
  authToken: string | null;
  user: SessionUser | null;
}

export function getAuthToken(): string | null {
  const token = readItem(STORAGE_KEYS.authToken);
  return token ? token : null;
}

/** The stored user, or null when it is missing or not a valid SessionUser. */
export function parseStoredUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const result = SessionUserSchema.safeParse(JSON.parse(raw));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

export function saveSession(authToken: string, user: SessionUser): void {
  writeItem(STORAGE_KEYS.user, JSON.stringify(user));
  writeItem(STORAGE_KEYS.authToken, authToken);
}

/** Changes fields of the stored user (e.g. after a profile save) so the header follows at once. */
export function updateStoredUser(changes: Partial<Omit<SessionUser, 'id'>>): void {
  const user = parseStoredUser(readItem(STORAGE_KEYS.user));
  if (!user) return;
  writeItem(STORAGE_KEYS.user, JSON.stringify({ ...user, ...changes }));
}

export function clearSession(): void {
  removeItems(STORAGE_KEYS.authToken, STORAGE_KEYS.user);
}

// useSyncExternalStore needs a stable snapshot: rebuild it only when the raw strings change.
let cachedToken: string | null = null;
let cachedUserRaw: string | null = null;
let cachedSession: Session = { authToken: null, user: null };

function getSessionSnapshot(): Session {
  const token = getAuthToken();
  const userRaw = readItem(STORAGE_KEYS.user);
  if (token !== cachedToken || userRaw !== cachedUserRaw) {
    cachedToken = token;
    cachedUserRaw = userRaw;
    // A user without a token is not a session.
    cachedSession = { authToken: token, user: token ? parseStoredUser(userRaw) : null };
  }
  return cachedSession;
}

const serverSnapshot: Session = { authToken: null, user: null };

export interface SessionState extends Session {
  isSignedIn: boolean;
  isAdmin: boolean;
}

export function useSession(): SessionState {
  const session = useSyncExternalStore(subscribeToStorage, getSessionSnapshot, () => serverSnapshot);
  const isSignedIn = session.authToken !== null && session.user !== null;
  return { ...session, isSignedIn, isAdmin: isSignedIn && session.user?.role === 'admin' };
}
