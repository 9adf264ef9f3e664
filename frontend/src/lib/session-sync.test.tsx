import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '@/test/fetch-mock';
import { REGULAR_USER, signIn } from '@/test/render';
import { useSession } from './session';
import { useStoredUserRefresh } from './session-sync';

function Name() {
  useStoredUserRefresh();
  const { user } = useSession();
  return <span data-testid="name">{user?.username ?? '—'}</span>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('useStoredUserRefresh', () => {
  it('follows a rename in another tab of this browser (the storage event), with no request', async () => {
    signIn(REGULAR_USER);
    const api = stubFetch(() => jsonResponse(200, REGULAR_USER));
    render(<Name />);
    expect(screen.getByTestId('name')).toHaveTextContent(REGULAR_USER.username);
    await waitFor(() => expect(api.requests).toHaveLength(1));

    // What the other tab's profile save writes, and the event this tab then gets.
    const renamed = JSON.stringify({ ...REGULAR_USER, username: 'ana-renombrada' });
    act(() => {
      localStorage.setItem('user', renamed);
      window.dispatchEvent(new StorageEvent('storage', { key: 'user', newValue: renamed }));
    });
    expect(screen.getByTestId('name')).toHaveTextContent('ana-renombrada');
    expect(api.requests).toHaveLength(1);
  });

  it('asks the server when the window comes back into focus, and takes a rename made elsewhere', async () => {
    signIn(REGULAR_USER);
    let answer: { id: string; username: string; email: string; role: 'user' | 'admin' } = REGULAR_USER;
    const api = stubFetch(() => jsonResponse(200, answer));
    render(<Name />);
    await waitFor(() => expect(api.requests).toHaveLength(1));
    expect(api.requests[0]).toMatchObject({ method: 'GET', url: '/api/users/me' });
    expect(screen.getByTestId('name')).toHaveTextContent(REGULAR_USER.username);

    answer = { ...REGULAR_USER, username: 'ana-desde-el-movil' };
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(screen.getByTestId('name')).toHaveTextContent('ana-desde-el-movil'));
    expect(api.requests).toHaveLength(2);
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ id: REGULAR_USER.id, username: 'ana-desde-el-movil' });
  });

  it('ignores an answer about another account, and a failed call', async () => {
    signIn(REGULAR_USER);
    let respond = () => jsonResponse(200, { ...REGULAR_USER, id: 'someone-else', username: 'otra' });
    const api = stubFetch(() => respond());
    render(<Name />);
    await waitFor(() => expect(api.requests).toHaveLength(1));
    respond = () => jsonResponse(503, { error: 'service_unavailable', message: 'No disponible' });
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(api.requests).toHaveLength(2));
    expect(screen.getByTestId('name')).toHaveTextContent(REGULAR_USER.username);
  });
});
