import { StrictMode } from 'react';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/app/router';
import { TooltipProvider } from '@/components/ui/tooltip';
import { isFramed } from '@/lib/frame';
import { createQueryClient } from '@/lib/query-client';
import { deferred, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, signIn } from '@/test/render';
import { consentFixture } from '../test/fixtures';
import { leavePageFor } from '../utils/leave-page';

vi.mock('../utils/leave-page', () => ({ leavePageFor: vi.fn() }));
vi.mock('@/lib/frame', () => ({ isFramed: vi.fn(() => false) }));

/** The request a third-party app sends people to, with parameters the POST must carry and some it must not. */
const QUERY =
  '?response_type=code&client_id=agenda-app&redirect_uri=https%3A%2F%2Fagenda.example%2Fcallback&scope=openid%20profile&state=st-1' +
  '&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&nonce=n-0S6_WzA2Mj&extra=ignored';
const PATH = `/oauth/authorize${QUERY}`;
const REDIRECT_TO = 'https://agenda.example/callback?code=c-1&state=st-1&iss=http%3A%2F%2F127.0.0.1%3A3000';
const EXPECTED_PARAMS = {
  response_type: 'code',
  client_id: 'agenda-app',
  redirect_uri: 'https://agenda.example/callback',
  scope: 'openid profile',
  state: 'st-1',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  nonce: 'n-0S6_WzA2Mj',
};

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

interface Answers {
  consent?: Handler;
  decide?: Handler;
}

/** As the server answers: without the bearer it asks for a sign-in first. */
const serverConsent: Handler = (request) => jsonResponse(200, request.headers.Authorization ? consentFixture() : consentFixture({ sign_in: { again: false } }));

function stubApi({ consent = serverConsent, decide = () => jsonResponse(200, { redirect_to: REDIRECT_TO }) }: Answers = {}) {
  const api = stubFetch((request) => {
    if (request.url.startsWith('/oauth/authorize') && request.method === 'GET') return consent(request);
    if (request.url === '/oauth/authorize' && request.method === 'POST') return decide(request);
    return jsonResponse(404, { error: 'not_found', message: 'No encontrado' });
  });
  return {
    ...api,
    consentCalls: () => api.requests.filter((request) => request.url.startsWith('/oauth/authorize') && request.method === 'GET'),
    posts: () => api.requests.filter((request) => request.url === '/oauth/authorize' && request.method === 'POST'),
    // The page never reads the grants itself any more: remembered consent is the server's (decision 0033).
    grantCalls: () => api.requests.filter((request) => request.url === '/api/users/me/apps'),
  };
}

/** The whole app (real routes, layout included) in StrictMode, opened at `path`. */
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

beforeEach(() => {
  vi.mocked(isFramed).mockReturnValue(false);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(leavePageFor).mockReset();
});

describe('ConsentPage', () => {
  it("shows a spinner while the request loads, asking GET /oauth/authorize with the same query, as JSON and with the session's bearer token", async () => {
    signIn(REGULAR_USER);
    const answer = deferred<void>();
    const { consentCalls } = stubApi({ consent: () => answer.promise.then(() => jsonResponse(200, consentFixture())) });
    renderApp();

    expect(await screen.findByTestId('spinner')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Permitir' })).not.toBeInTheDocument();
    // StrictMode's double mount may abort the first fetch and ask again; every call is the same.
    await waitFor(() => expect(consentCalls().length).toBeGreaterThan(0));
    for (const call of consentCalls()) {
      expect(call.url).toBe(PATH);
      expect(call.headers.Accept).toBe('application/json');
      expect(call.headers.Authorization).toBe('Bearer test-token');
    }

    answer.resolve();
    expect(await screen.findByRole('heading', { name: 'Solicitud de acceso' })).toBeInTheDocument();
    expect(screen.queryByTestId('spinner')).not.toBeInTheDocument();
  });

  it('signed out: "Inicia sesión para continuar" with a GitHub login that comes back to this same request', async () => {
    const { posts, grantCalls } = stubApi();
    renderApp();

    expect(await screen.findByRole('heading', { name: 'Inicia sesión para continuar' })).toBeInTheDocument();
    const login = screen.getByRole('link', { name: 'Iniciar sesión con GitHub' });
    expect(login).toHaveAttribute('href', `/login/github?returnTo=${encodeURIComponent(PATH)}`);
    // The backend decodes returnTo once and gets the page's path and query back, exactly.
    expect(new URL(login.getAttribute('href')!, 'http://life.test').searchParams.get('returnTo')).toBe(PATH);
    expect(login).not.toHaveAttribute('target');
    expect(screen.queryByRole('button', { name: 'Permitir' })).not.toBeInTheDocument();
    expect(posts()).toHaveLength(0);
    expect(grantCalls()).toHaveLength(0);
  });

  it('signed in: "Solicitud de acceso", the app name and each requested scope\'s description, then Permitir and Denegar', async () => {
    signIn(REGULAR_USER);
    stubApi();
    renderApp();

    expect(await screen.findByRole('heading', { name: 'Solicitud de acceso' })).toBeInTheDocument();
    expect(screen.getByTestId('consent-request-text')).toHaveTextContent(/^La aplicación Mi Agenda solicita permiso para:$/);
    const scopes = within(screen.getByTestId('consent-scopes')).getAllByRole('listitem');
    expect(scopes.map((item) => item.textContent)).toEqual(['Saber quién eres', 'Ver tu nombre de usuario']);
    expect(screen.queryByText('Sin permisos específicos')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Permitir' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Denegar' })).toBeEnabled();
  });

  it('a company app: the logo (no referrer), "Verificada por Life" and its policy links in a new tab (decision 0037)', async () => {
    signIn(REGULAR_USER);
    stubApi({
      consent: () =>
        jsonResponse(
          200,
          consentFixture({
            logo_uri: 'https://agenda.example/logo.png',
            policy_uri: 'https://agenda.example/privacidad',
            tos_uri: 'https://agenda.example/terminos',
          }),
        ),
    });
    renderApp();
    expect(await screen.findByTestId('consent-verified')).toHaveTextContent('Verificada por Life');
    expect(screen.queryByTestId('consent-unverified')).not.toBeInTheDocument();
    const logo = screen.getByTestId('consent-logo');
    expect(logo).toHaveAttribute('src', 'https://agenda.example/logo.png');
    expect(logo).toHaveAttribute('referrerpolicy', 'no-referrer');
    const policy = screen.getByRole('link', { name: /Política de privacidad de la aplicación/ });
    expect(policy).toHaveAttribute('href', 'https://agenda.example/privacidad');
    expect(policy).toHaveAttribute('target', '_blank');
    expect(policy).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: /Condiciones de uso de la aplicación/ })).toHaveAttribute('href', 'https://agenda.example/terminos');
  });

  it('a person-made app nobody checked: "Aplicación no verificada" in plain words, no logo, no links', async () => {
    signIn(REGULAR_USER);
    stubApi({ consent: () => jsonResponse(200, consentFixture({ verified: false, developer_app: true })) });
    renderApp();
    const warning = await screen.findByTestId('consent-unverified');
    expect(warning).toHaveTextContent('Aplicación no verificada');
    expect(warning).toHaveTextContent('La ha creado una persona y Life no la ha revisado');
    expect(warning).toHaveTextContent('Permite el acceso solo si confías en Mi Agenda.');
    expect(screen.queryByTestId('consent-verified')).not.toBeInTheDocument();
    expect(screen.queryByTestId('consent-logo')).not.toBeInTheDocument();
    expect(screen.queryByTestId('consent-links')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Permitir' })).toBeEnabled();
  });

  it('says "Sin permisos específicos" when the request names no scope', async () => {
    signIn(REGULAR_USER);
    stubApi({ consent: () => jsonResponse(200, consentFixture({ scope: '', scopes: [] })) });
    renderApp('/oauth/authorize?response_type=code&client_id=agenda-app&redirect_uri=https%3A%2F%2Fagenda.example%2Fcallback');

    expect(await screen.findByText('Sin permisos específicos')).toBeInTheDocument();
    expect(screen.queryByTestId('consent-scopes')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Permitir' })).toBeInTheDocument();
  });

  it('Permitir POSTs the request\'s parameters with action "allow" (bearer), disables both buttons meanwhile, then goes to redirect_to', async () => {
    signIn(REGULAR_USER);
    const answer = deferred<Response>();
    const { posts } = stubApi({ decide: () => answer.promise });
    renderApp();

    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body).toEqual({ ...EXPECTED_PARAMS, action: 'allow' });
    expect(posts()[0]!.headers.Authorization).toBe('Bearer test-token');
    expect(screen.getByRole('button', { name: 'Permitir' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Denegar' })).toBeDisabled();
    expect(leavePageFor).not.toHaveBeenCalled();

    answer.resolve(jsonResponse(200, { redirect_to: REDIRECT_TO }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith(REDIRECT_TO));
    expect(leavePageFor).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Redirigiendo…')).toBeInTheDocument();
    // Still busy while the browser leaves: a second click cannot post again.
    expect(screen.getByRole('button', { name: 'Permitir' })).toBeDisabled();
    expect(posts()).toHaveLength(1);
  });

  it('a pushed request (RFC 9126): GET and POST carry client_id and request_uri back, nothing else', async () => {
    signIn(REGULAR_USER);
    const requestUri = 'urn:ietf:params:oauth:request_uri:abc_DEF-123';
    const { posts, consentCalls } = stubApi();
    renderApp(`/oauth/authorize?client_id=life_agenda&request_uri=${encodeURIComponent(requestUri)}`);

    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(consentCalls()[0]!.url).toBe(`/oauth/authorize?client_id=life_agenda&request_uri=${encodeURIComponent(requestUri)}`);
    expect(posts()[0]!.body).toEqual({ client_id: 'life_agenda', request_uri: requestUri, action: 'allow' });
  });

  it('Denegar POSTs action "deny" and follows the answer', async () => {
    signIn(REGULAR_USER);
    const denied = 'https://agenda.example/callback?error=access_denied&state=st-1';
    const { posts } = stubApi({ decide: () => jsonResponse(200, { redirect_to: denied }) });
    renderApp();

    await userEvent.click(await screen.findByRole('button', { name: 'Denegar' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith(denied));
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.body).toEqual({ ...EXPECTED_PARAMS, action: 'deny' });
  });

  it("shows the server's message when the request is refused (unknown client), logs it, and never redirects", async () => {
    signIn(REGULAR_USER);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const { posts } = stubApi({
      consent: () =>
        jsonResponse(400, { error: 'invalid_client', message: 'Esta aplicación no existe o está desactivada.', error_description: 'Unknown client' }),
    });
    const router = renderApp();

    expect(await screen.findByTestId('consent-error-message')).toHaveTextContent('Esta aplicación no existe o está desactivada.');
    expect(screen.getByRole('heading', { name: 'No se puede continuar con esta solicitud' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Permitir' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Iniciar sesión con GitHub' })).not.toBeInTheDocument();
    // A handled answer: one debug line, nothing in the error console (decision 0022).
    expect(log).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith('Error cargando la solicitud de acceso (400 invalid_client)');
    expect(posts()).toHaveLength(0);
    expect(leavePageFor).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/oauth/authorize');
  });

  it('a failed decision shows a message and lets the person try again', async () => {
    signIn(REGULAR_USER);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let answer: () => Response = () => jsonResponse(400, { error: 'invalid_request', message: 'La solicitud ha caducado.' });
    const { posts } = stubApi({ decide: () => answer() });
    renderApp();

    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    expect(await screen.findByTestId('consent-decision-error')).toHaveTextContent('No se pudo enviar tu respuesta. La solicitud ha caducado.');
    expect(leavePageFor).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Permitir' })).toBeEnabled();

    answer = () => jsonResponse(200, { redirect_to: REDIRECT_TO });
    await userEvent.click(screen.getByRole('button', { name: 'Permitir' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith(REDIRECT_TO));
    expect(posts()).toHaveLength(2);
    expect(screen.queryByTestId('consent-decision-error')).not.toBeInTheDocument();
  });

  it('a decision refused with 401 (the session ended) asks to sign in again on the same request', async () => {
    signIn(REGULAR_USER);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({ decide: () => jsonResponse(401, { error: 'unauthorized', message: 'Inicia sesión.' }) });
    const router = renderApp();

    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    expect(await screen.findByRole('heading', { name: 'Inicia sesión para continuar' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/oauth/authorize');
    expect(window.localStorage.getItem('authToken')).toBeNull();
  });

  it('remembered consent, decided by the server: a code in redirect_to is followed once, without buttons or a POST (even in StrictMode)', async () => {
    signIn(REGULAR_USER);
    const { posts, grantCalls } = stubApi({ consent: () => jsonResponse(200, { redirect_to: REDIRECT_TO }) });
    renderApp();

    expect(await screen.findByTestId('consent-redirecting')).toHaveTextContent('Ya diste permiso a esta aplicación. Redirigiendo…');
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith(REDIRECT_TO));
    await act(() => Promise.resolve());
    expect(leavePageFor).toHaveBeenCalledTimes(1);
    expect(within(screen.getByTestId('consent-leaving')).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Permitir' })).not.toBeInTheDocument();
    expect(posts()).toHaveLength(0);
    expect(grantCalls()).toHaveLength(0);
  });

  it('an OIDC error for the app (prompt=none, login_required) is followed back to the app, signed in or not', async () => {
    const back = 'https://agenda.example/callback?error=login_required&state=st-1&iss=http%3A%2F%2F127.0.0.1%3A3000';
    const { consentCalls } = stubApi({ consent: () => jsonResponse(200, { redirect_to: back }) });
    renderApp(`${PATH}&prompt=none`);

    expect(await screen.findByTestId('consent-redirecting')).toHaveTextContent('Volviendo a la aplicación…');
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith(back));
    expect(consentCalls()[0]!.url).toBe(`${PATH}&prompt=none`);
    expect(screen.queryByRole('link', { name: 'Iniciar sesión con GitHub' })).not.toBeInTheDocument();
  });

  it('prompt=login / max_age: "Vuelve a iniciar sesión", and the sign-in comes back with the login ticket; the POST carries them all', async () => {
    signIn(REGULAR_USER);
    const ticket = 'lq7k2m.' + 'a'.repeat(64);
    const path = `${PATH}&prompt=login&max_age=60`;
    const { posts } = stubApi({
      consent: (request) =>
        jsonResponse(200, request.url.includes('login_ticket=') ? consentFixture() : consentFixture({ sign_in: { again: true, login_ticket: ticket } })),
    });
    renderApp(path);

    expect(await screen.findByRole('heading', { name: 'Vuelve a iniciar sesión' })).toBeInTheDocument();
    expect(
      screen.getByText('Mi Agenda pide que confirmes que eres tú. Inicia sesión de nuevo y volverás aquí para decidir si se lo permites.'),
    ).toBeInTheDocument();
    const returnTo = new URL(screen.getByRole('link', { name: 'Iniciar sesión con GitHub' }).getAttribute('href')!, 'http://life.test').searchParams.get(
      'returnTo',
    )!;
    const query = new URL(returnTo, 'http://life.test').searchParams;
    expect([query.get('login_ticket'), query.get('prompt'), query.get('max_age'), query.get('state')]).toEqual([ticket, 'login', '60', 'st-1']);
    // Still signed in locally: the old session is not thrown away before the new sign-in.
    expect(window.localStorage.getItem('authToken')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Permitir' })).not.toBeInTheDocument();

    // Back from the sign-in, with the ticket: the question, and Permitir carries prompt, max_age and the ticket.
    vi.mocked(leavePageFor).mockReset();
    document.body.innerHTML = '';
    renderApp(returnTo);
    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body).toEqual({ ...EXPECTED_PARAMS, prompt: 'login', max_age: '60', login_ticket: ticket, action: 'allow' });
  });

  it('a token the server no longer knows: the page signs out and asks to sign in', async () => {
    signIn(REGULAR_USER);
    stubApi({ consent: () => jsonResponse(200, consentFixture({ sign_in: { again: false } })) });
    renderApp();

    expect(await screen.findByRole('heading', { name: 'Inicia sesión para continuar' })).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem('authToken')).toBeNull());
  });

  it('prompt=consent: the page shows the question the server answers with', async () => {
    signIn(REGULAR_USER);
    const { posts, consentCalls } = stubApi();
    renderApp(`${PATH}&prompt=consent`);

    expect(await screen.findByRole('button', { name: 'Permitir' })).toBeEnabled();
    expect(consentCalls()[0]!.url).toBe(`${PATH}&prompt=consent`);
    expect(screen.queryByTestId('consent-redirecting')).not.toBeInTheDocument();
    expect(posts()).toHaveLength(0);
  });

  it("inside a frame (the admin panel's Autorizar): asks the server with prompt=consent, and Permitir says what it granted without leaving", async () => {
    vi.mocked(isFramed).mockReturnValue(true);
    signIn(REGULAR_USER);
    const { posts, consentCalls } = stubApi();
    renderApp();

    // No automatic yes: the server is told to ask, even for a URL without prompt.
    const allow = await screen.findByRole('button', { name: 'Permitir' });
    expect(new URLSearchParams(consentCalls()[0]!.url.split('?')[1]).get('prompt')).toBe('consent');
    expect(screen.queryByTestId('consent-redirecting')).not.toBeInTheDocument();
    expect(posts()).toHaveLength(0);
    expect(screen.getByTestId('consent-framed-note')).toHaveTextContent('Permitir concede de verdad a Mi Agenda estos permisos sobre tu propia cuenta');

    await userEvent.click(allow);
    expect(await screen.findByTestId('consent-outcome-title')).toHaveTextContent('Acceso concedido');
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.body).toMatchObject({ action: 'allow', prompt: 'consent' });
    expect(
      within(screen.getByTestId('consent-outcome-scopes'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Saber quién eres', 'Ver tu nombre de usuario']);
    expect(screen.getByTestId('consent-outcome-redirect')).toHaveTextContent('agenda.example');
    // The code in redirect_to is never shown, and nothing navigates.
    expect(document.body.textContent).not.toContain('c-1');
    expect(leavePageFor).not.toHaveBeenCalled();
  });

  it('inside a frame, Denegar says nothing was granted and does not leave', async () => {
    vi.mocked(isFramed).mockReturnValue(true);
    signIn(REGULAR_USER);
    const { posts } = stubApi({ decide: () => jsonResponse(200, { redirect_to: 'https://agenda.example/callback?error=access_denied&state=st-1' }) });
    renderApp();

    await userEvent.click(await screen.findByRole('button', { name: 'Denegar' }));
    expect(await screen.findByTestId('consent-outcome-title')).toHaveTextContent('Acceso denegado');
    expect(screen.getByTestId('consent-outcome-text')).toHaveTextContent('No se ha concedido nada a Mi Agenda.');
    expect(screen.queryByTestId('consent-outcome-scopes')).not.toBeInTheDocument();
    expect(posts()[0]!.body).toMatchObject({ action: 'deny' });
    expect(leavePageFor).not.toHaveBeenCalled();
  });

  it("inside a frame (the admin panel's Autorizar): no header or footer, and the login link leaves the frame", async () => {
    vi.mocked(isFramed).mockReturnValue(true);
    stubApi();
    renderApp();

    const login = await screen.findByRole('link', { name: 'Iniciar sesión con GitHub' });
    expect(login).toHaveAttribute('target', '_top');
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(login);
  });
});
