import { useSyncExternalStore } from 'react';
import type { SessionUser } from '@life/contracts';
import { ROLES, STORAGE_KEYS } from './contract-constants';
import { readItem, removeItems, subscribeToStorage, writeItem } from './local-store';

export interface Session {
  authToken: string | null;
  user: SessionUser | null;
}

export function getAuthToken(): string | null {
  const token = readItem(STORAGE_KEYS.authToken);
  return token ? token : null;
}

/**
 * `SessionUserSchema` checked by hand: the header reads the stored user on every page's first
 * render, and zod is not part of the landing page's JavaScript (see docs/benchmarks.md, issue 15).
 * Like the schema, it keeps only the known fields. session.test.tsx checks both agree.
 */
export function toSessionUser(value: unknown): SessionUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, username, email, role } = value as Record<string, unknown>;
  if (typeof id !== 'string' || typeof username !== 'string' || typeof email !== 'string') return null;
  if (!(ROLES as readonly unknown[]).includes(role)) return null;
  return { id, username, email, role: role as SessionUser['role'] };
}

/** The stored user, or null when it is missing or not a valid SessionUser. */
export function parseStoredUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    return toSessionUser(JSON.parse(raw));
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
