import { StrictMode } from 'react';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/app/router';
import { TooltipProvider } from '@/components/ui/tooltip';
import { createQueryClient } from '@/lib/query-client';
import { deferred, jsonResponse, stubFetch } from '@/test/fetch-mock';

const USER = { id: 'u1', username: 'ana', email: 'ana@example.com', role: 'user' } as const;

/** The whole app (real routes) in StrictMode, opened at `path`. */
function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  const result = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <RouterProvider router={router} />
        </TooltipProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  return { ...result, router };
}

function callbackCalls(requests: { url: string }[]) {
  return requests.filter((request) => request.url.startsWith('/login/'));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LoginCallbackPage', () => {
  it('shows the waiting message and calls the backend once with the same query string, even in StrictMode and when rendered twice', async () => {
    const answer = deferred<Response>();
    const { requests } = stubFetch(() => answer.promise);
    const path = '/login/github/callback?code=once-1&state=st-1&iss=https%3A%2F%2Fgithub.com';

    const first = renderApp(path);
    expect(await screen.findByText('Iniciando sesión, por favor espera...')).toBeInTheDocument();
    await waitFor(() => expect(callbackCalls(requests)).toHaveLength(1));
    expect(requests[0]).toMatchObject({
      method: 'GET',
      url: '/login/github/callback?code=once-1&state=st-1&iss=https%3A%2F%2Fgithub.com',
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });

    // A second page for the same code (a remount) shares the first exchange.
    first.unmount();
    const second = renderApp(path);
    answer.resolve(jsonResponse(200, { authToken: 'tok-1', user: USER }));
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/dashboard'));
    expect(callbackCalls(requests)).toHaveLength(1);
  });

  it('never sends a bearer token, even when an old one is stored', async () => {
    localStorage.setItem('authToken', 'old-token');
    const { requests } = stubFetch(() => jsonResponse(200, { authToken: 'tok-2', user: USER }));
    const { router } = renderApp('/login/google/callback?code=bearer-2&state=s');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(requests[0]!.headers.Authorization).toBeUndefined();
  });

  it('on success stores authToken and user, then goes to /dashboard', async () => {
    stubFetch(() => jsonResponse(200, { authToken: 'tok-3', user: { ...USER, extra: 'ignored' } }));
    const { router } = renderApp('/login/github/callback?code=ok-3&state=s');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('authToken')).toBe('tok-3');
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual(USER);
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByTestId('header-username')).toHaveTextContent('ana');
  });

  it('goes to the returnTo of the answer when it is a path on this site', async () => {
    stubFetch((request) =>
      request.url.startsWith('/login/') ? jsonResponse(200, { authToken: 'tok-4', user: USER, returnTo: '/profile?tab=1' }) : jsonResponse(200, USER),
    );
    const { router } = renderApp('/login/microsoft/callback?code=ok-4&state=s');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(router.state.location.search).toEqual({ tab: 1 });
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example'])('ignores returnTo %s and goes to /dashboard', async (returnTo) => {
    stubFetch(() => jsonResponse(200, { authToken: 'tok-5', user: USER, returnTo }));
    const { router } = renderApp(`/login/github/callback?code=ok-5-${encodeURIComponent(returnTo)}&state=s`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('passes the query string on as written (a long numeric code is not rounded)', async () => {
    const { requests } = stubFetch(() => jsonResponse(200, { authToken: 'tok-6', user: USER }));
    const { router } = renderApp('/login/github/callback?code=12345678901234567890&state=1e5');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(requests[0]!.url).toBe('/login/github/callback?code=12345678901234567890&state=1e5');
  });

  it('without a code nothing is processed and the page goes to /', async () => {
    const { requests } = stubFetch(() => jsonResponse(200, {}));
    const { router } = renderApp('/login/github/callback?state=only-state');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.search).toEqual({});
    expect(callbackCalls(requests)).toHaveLength(0);
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('with a provider segment that is not letters, digits, _ or - nothing is processed', async () => {
    const { requests } = stubFetch(() => jsonResponse(200, {}));
    const { router } = renderApp('/login/git.hub/callback?code=bad-segment&state=s');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(callbackCalls(requests)).toHaveLength(0);
  });

  it('on an error answer goes to /?login_error=<code> and the landing page explains it', async () => {
    stubFetch(() => jsonResponse(403, { error: 'not_invited', message: 'Not invited' }));
    const { router } = renderApp('/login/github/callback?code=err-7&state=s');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.search).toEqual({ login_error: 'not_invited' });
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Life está en beta privada y tu e-mail aún no tiene invitación.');
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it.each([
    ['a 200 answer with an error field', () => jsonResponse(200, { authToken: 'x', user: USER, error: 'invalid_state' }), 'invalid_state'],
    ['a 200 answer without a user', () => jsonResponse(200, { authToken: 'x' }), 'provider_error'],
    ['an answer that is not JSON', () => new Response('<h1>Bad gateway</h1>', { status: 502 }), 'provider_error'],
    [
      'a network failure',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'provider_error',
    ],
  ])('treats %s as a failure (login_error=%s)', async (_label, respond, code) => {
    stubFetch(respond);
    const { router } = renderApp(`/login/github/callback?code=fail-${code}-${Math.random()}&state=s`);
    await waitFor(() => expect(router.state.location.search).toEqual({ login_error: code }));
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('authToken')).toBeNull();
  });
});
