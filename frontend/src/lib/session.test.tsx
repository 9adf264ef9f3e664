import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SessionUserSchema } from '@life/contracts';
import { clearSession, saveSession, toSessionUser, updateStoredUser, useSession } from './session';

const ana = { id: '1', username: 'ana', email: 'ana@example.com', role: 'admin' } as const;

describe('useSession', () => {
  it('is signed out with an empty storage', () => {
    const { result } = renderHook(() => useSession());
    expect(result.current).toMatchObject({ isSignedIn: false, isAdmin: false, user: null });
  });

  it('follows saveSession and clearSession in this tab', () => {
    const { result } = renderHook(() => useSession());
    act(() => saveSession('tok', ana));
    expect(result.current).toMatchObject({ isSignedIn: true, isAdmin: true, authToken: 'tok' });
    expect(result.current.user?.username).toBe('ana');
    act(() => clearSession());
    expect(result.current.isSignedIn).toBe(false);
  });

  it('follows changes made in another tab (storage event)', () => {
    const { result } = renderHook(() => useSession());
    act(() => {
      localStorage.setItem('authToken', 'tok');
      localStorage.setItem('user', JSON.stringify({ ...ana, role: 'user' }));
      window.dispatchEvent(new StorageEvent('storage', { key: 'user' }));
    });
    expect(result.current).toMatchObject({ isSignedIn: true, isAdmin: false });
  });

  it('treats a malformed stored user, or a user without token, as signed out', () => {
    localStorage.setItem('authToken', 'tok');
    localStorage.setItem('user', '{not json');
    const { result, rerender } = renderHook(() => useSession());
    expect(result.current.isSignedIn).toBe(false);

    localStorage.removeItem('authToken');
    localStorage.setItem('user', JSON.stringify(ana));
    rerender();
    expect(result.current).toMatchObject({ isSignedIn: false, isAdmin: false });
  });

  it('updateStoredUser changes the stored user and the hook follows', () => {
    const { result } = renderHook(() => useSession());
    act(() => saveSession('tok', ana));
    act(() => updateStoredUser({ username: 'ana_nueva' }));
    expect(result.current.user).toEqual({ ...ana, username: 'ana_nueva' });
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual({ ...ana, username: 'ana_nueva' });
  });

  it('updateStoredUser does nothing without a valid stored user', () => {
    updateStoredUser({ username: 'nadie' });
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('checks a stored user as SessionUserSchema does', () => {
    const samples: unknown[] = [
      ana,
      { ...ana, role: 'user', extra: 'dropped' },
      { ...ana, role: 'owner' },
      { ...ana, id: 1 },
      { id: '1', username: 'ana', email: 'ana@example.com' },
      null,
      'ana',
      [ana],
    ];
    for (const sample of samples) {
      const parsed = SessionUserSchema.safeParse(sample);
      expect(toSessionUser(sample), JSON.stringify(sample)).toEqual(parsed.success ? parsed.data : null);
    }
  });
});
