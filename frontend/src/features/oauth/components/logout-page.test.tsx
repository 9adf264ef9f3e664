import { StrictMode } from 'react';
import type { EndSessionInfo } from '@life/contracts';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/app/router';
import { TooltipProvider } from '@/components/ui/tooltip';
import { createQueryClient } from '@/lib/query-client';
import { emptyResponse, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, signIn } from '@/test/render';
import { leavePageFor } from '../utils/leave-page';

vi.mock('../utils/leave-page', () => ({ leavePageFor: vi.fn() }));

const QUERY = '?id_token_hint=eyJ.x.y&post_logout_redirect_uri=https%3A%2F%2Fagenda.example%2Fsigned-out&state=st-1';
const PATH = `/oauth/logout${QUERY}`;
const REDIRECT_TO = 'https://agenda.example/signed-out?state=st-1';
const info = (overrides: Partial<EndSessionInfo> = {}): EndSessionInfo => ({
  client_id: 'agenda-app',
  client_name: 'Mi Agenda',
  redirect_to: REDIRECT_TO,
  ...overrides,
});

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function stubApi({ endSession = () => jsonResponse(200, info()) }: { endSession?: Handler } = {}) {
  const api = stubFetch((request) => {
    if (request.url.startsWith('/oauth/logout') && request.method === 'GET') return endSession(request);
    if (request.url === '/api/auth/logout' && request.method === 'POST') return emptyResponse(204);
    return jsonResponse(404, { error: 'not_found', message: 'No encontrado' });
  });
  return {
    ...api,
    checks: () => api.requests.filter((request) => request.url.startsWith('/oauth/logout')),
    signOuts: () => api.requests.filter((request) => request.url === '/api/auth/logout'),
  };
}

function renderApp(path = PATH) {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <RouterProvider router={router} />
        </TooltipProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  return router;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(leavePageFor).mockReset();
});

describe('LogoutPage (RP-initiated logout)', () => {
  it('signed in: asks "¿Cerrar sesión en Life?" naming the app, after checking the request as JSON without the bearer', async () => {
    signIn(REGULAR_USER);
    const { checks, signOuts } = stubApi();
    renderApp();

    expect(await screen.findByRole('heading', { name: '¿Cerrar sesión en Life?' })).toBeInTheDocument();
    expect(screen.getByTestId('logout-asked')).toHaveTextContent(/^Mi Agenda te pide que cierres tu sesión en Life\.$/);
    expect(screen.getByText('Has iniciado sesión como bruno.')).toBeInTheDocument();
    expect(screen.getByText('Después te llevaremos de vuelta a agenda.example.')).toBeInTheDocument();
    for (const call of checks()) {
      expect(call.url).toBe(PATH);
      expect(call.headers.Accept).toBe('application/json');
      expect(call.headers).not.toHaveProperty('Authorization');
    }
    // Nothing happens until the person answers.
    expect(signOuts()).toHaveLength(0);
    expect(leavePageFor).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('authToken')).toBe('test-token');
  });

  it('on "Cerrar sesión" ends the session on the server, forgets it here, then goes to the app with state', async () => {
    signIn(REGULAR_USER);
    const { signOuts } = stubApi();
    renderApp();

    await userEvent.click(await screen.findByRole('button', { name: 'Cerrar sesión' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith(REDIRECT_TO));
    expect(leavePageFor).toHaveBeenCalledTimes(1);
    expect(signOuts()).toHaveLength(1);
    expect(signOuts()[0]!.headers.Authorization).toBe('Bearer test-token');
    expect(window.localStorage.getItem('authToken')).toBeNull();
  });

  it('without a return address: after signing out says "Has cerrado sesión" and offers the home page', async () => {
    signIn(REGULAR_USER);
    const { signOuts } = stubApi({ endSession: () => jsonResponse(200, info({ redirect_to: null })) });
    renderApp();

    await userEvent.click(await screen.findByRole('button', { name: 'Cerrar sesión' }));
    expect(await screen.findByRole('heading', { name: 'Has cerrado sesión' })).toBeInTheDocument();
    expect(screen.getByTestId('logout-done-text')).toHaveTextContent('Tu sesión en Life está cerrada. Ya puedes volver a Mi Agenda.');
    expect(screen.getByRole('link', { name: 'Ir a la página de inicio' })).toHaveAttribute('href', '/');
    expect(signOuts()).toHaveLength(1);
    expect(leavePageFor).not.toHaveBeenCalled();
  });

  it('without an app: a plain question and a plain "signed out" screen', async () => {
    signIn(REGULAR_USER);
    stubApi({ endSession: () => jsonResponse(200, info({ client_id: null, client_name: null, redirect_to: null })) });
    renderApp('/oauth/logout');

    expect(await screen.findByTestId('logout-asked')).toHaveTextContent(/^Se ha pedido cerrar tu sesión en Life\.$/);
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar sesión' }));
    expect(await screen.findByTestId('logout-done-text')).toHaveTextContent(/^Tu sesión en Life está cerrada\.$/);
  });

  it('"No, seguir con la sesión" keeps the session and goes to the dashboard', async () => {
    signIn(REGULAR_USER);
    const { signOuts } = stubApi();
    renderApp();

    const cancel = await screen.findByRole('link', { name: 'No, seguir con la sesión' });
    expect(cancel).toHaveAttribute('href', '/dashboard');
    expect(signOuts()).toHaveLength(0);
  });

  it('signed out: no question, straight to the app', async () => {
    const { signOuts } = stubApi();
    renderApp();

    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith(REDIRECT_TO));
    expect(leavePageFor).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Cerrar sesión' })).not.toBeInTheDocument();
    expect(signOuts()).toHaveLength(0);
  });

  it('signed out and nowhere to go: straight to "Has cerrado sesión"', async () => {
    stubApi({ endSession: () => jsonResponse(200, info({ redirect_to: null })) });
    renderApp();

    expect(await screen.findByRole('heading', { name: 'Has cerrado sesión' })).toBeInTheDocument();
    expect(leavePageFor).not.toHaveBeenCalled();
  });

  it("a refused request shows the server's message, goes nowhere and leaves the session alone", async () => {
    signIn(REGULAR_USER);
    const message = 'Esa dirección de vuelta (post_logout_redirect_uri) no está registrada para esta aplicación.';
    const { signOuts } = stubApi({ endSession: () => jsonResponse(400, { error: 'invalid_request', error_description: message, message }) });
    renderApp();

    expect(await screen.findByRole('heading', { name: 'No se puede cerrar la sesión con esta solicitud' })).toBeInTheDocument();
    expect(screen.getByTestId('logout-error-message')).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Cerrar sesión' })).not.toBeInTheDocument();
    expect(signOuts()).toHaveLength(0);
    expect(leavePageFor).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('authToken')).toBe('test-token');
  });

  it('speaks the language the app asks for (ui_locales) when the person has not chosen one, also once signed out', async () => {
    signIn(REGULAR_USER);
    stubApi({ endSession: () => jsonResponse(200, info({ redirect_to: null })) });
    renderApp(`${PATH}&ui_locales=en`);

    expect(await screen.findByRole('heading', { name: 'Sign out of Life?' })).toBeInTheDocument();
    expect(screen.getByTestId('logout-asked')).toHaveTextContent(/^Mi Agenda is asking you to sign out of Life\.$/);
    // Signing out changes the stored session: the language stays the one asked for.
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'You have signed out' })).toBeInTheDocument();
  });
});
