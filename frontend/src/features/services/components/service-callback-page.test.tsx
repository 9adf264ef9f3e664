import { StrictMode } from 'react';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/app/router';
import { TooltipProvider } from '@/components/ui/tooltip';
import { createQueryClient } from '@/lib/query-client';
import { deferred, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, signIn } from '@/test/render';

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

function callbackCalls(requests: RecordedRequest[]) {
  return requests.filter((request) => request.url.startsWith('/callback/'));
}

/** Answers the service callback with `answer`, and the dashboard's list (after success) with nothing. */
function backend(answer: () => Response | Promise<Response>) {
  return stubFetch((request) => (request.url.startsWith('/callback/') ? answer() : jsonResponse(200, [])));
}

let unique = 0;
const code = () => `code-${++unique}`;

beforeEach(() => signIn(REGULAR_USER));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ServiceCallbackPage', () => {
  it('shows the waiting message and calls the backend once, with the same query string, JSON and the bearer token, even in StrictMode and when rendered twice', async () => {
    const answer = deferred<Response>();
    const { requests } = backend(() => answer.promise);
    const path = '/callback/googlecalendar?code=once-1&state=st-1&scope=a%20b&iss=https%3A%2F%2Faccounts.google.com';

    const first = renderApp(path);
    expect(await screen.findByText('Procesando conexión con el servicio...')).toBeInTheDocument();
    await waitFor(() => expect(callbackCalls(requests)).toHaveLength(1));
    expect(callbackCalls(requests)[0]).toMatchObject({
      method: 'GET',
      url: '/callback/googlecalendar?code=once-1&state=st-1&scope=a%20b&iss=https%3A%2F%2Faccounts.google.com',
      headers: { Accept: 'application/json', Authorization: 'Bearer test-token' },
    });

    // A second page for the same code (a remount) shares the first exchange.
    first.unmount();
    const second = renderApp(path);
    answer.resolve(jsonResponse(200, { service: 'googlecalendar', connected: true, account_name: 'ana@example.com', user: USER }));
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/dashboard'));
    expect(callbackCalls(requests)).toHaveLength(1);
  });

  it('passes a long numeric code on as written', async () => {
    const { requests } = backend(() => jsonResponse(200, { service: 'notion', connected: true, account_name: null, user: USER }));
    const { router } = renderApp('/callback/notion?code=12345678901234567890&state=1e5');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(callbackCalls(requests)[0]!.url).toBe('/callback/notion?code=12345678901234567890&state=1e5');
  });

  it('githublogin succeeds with authToken and no error, and stores the session like a login', async () => {
    backend(() => jsonResponse(200, { authToken: 'tok-gl', user: USER }));
    const { router } = renderApp(`/callback/githublogin?code=${code()}&state=s`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('authToken')).toBe('tok-gl');
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual(USER);
  });

  it('spotify succeeds with user and no error', async () => {
    backend(() => jsonResponse(200, { user: USER }));
    const { router } = renderApp(`/callback/spotify?code=${code()}&state=s`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('other services succeed with connected: true and user (our backend answer)', async () => {
    backend(() => jsonResponse(200, { service: 'destiny2', connected: true, account_name: 'Guardian#1234', user: USER }));
    const { router } = renderApp(`/callback/destiny2?code=${code()}&state=s`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it.each([
    ['githublogin without authToken', 'githublogin', () => jsonResponse(200, { user: USER })],
    ['githublogin with an error field', 'githublogin', () => jsonResponse(200, { authToken: 'tok', user: USER, error: 'denied' })],
    ['spotify without user', 'spotify', () => jsonResponse(200, { service: 'spotify', connected: true })],
    ['spotify with an error field', 'spotify', () => jsonResponse(200, { user: USER, error: 'access_denied' })],
    ['another service without connected: true', 'wow', () => jsonResponse(200, { service: 'wow', user: USER })],
    ['another service without user', 'wow', () => jsonResponse(200, { service: 'wow', connected: true })],
    ['another service with an error field', 'fitbit', () => jsonResponse(200, { service: 'fitbit', connected: true, user: USER, error: 'x' })],
    ['an error answer', 'github', () => jsonResponse(400, { error: 'invalid_state', message: 'Este enlace de conexión ya no es válido.' })],
    ['an answer that is not JSON', 'github', () => new Response('<h1>Bad gateway</h1>', { status: 502 })],
    [
      'a network failure',
      'github',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('treats %s as a failure and goes to /', async (_label, service, respond) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { requests } = backend(respond);
    const { router } = renderApp(`/callback/${service}?code=${code()}&state=s`);
    await waitFor(() => expect(callbackCalls(requests)).toHaveLength(1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('authToken')).toBe('test-token');
  });

  it('without a code nothing is processed and the page goes to /', async () => {
    const { requests } = backend(() => jsonResponse(200, {}));
    const { router } = renderApp('/callback/spotify?state=only-state');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(callbackCalls(requests)).toHaveLength(0);
  });

  it('with a service segment that is not letters, digits, _ or - nothing is processed', async () => {
    const { requests } = backend(() => jsonResponse(200, {}));
    const { router } = renderApp('/callback/spo.tify?code=bad-segment&state=s');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(callbackCalls(requests)).toHaveLength(0);
  });
});
