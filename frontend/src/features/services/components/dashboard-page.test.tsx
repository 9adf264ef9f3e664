import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { serviceFixture } from '@/shared/services/test/fixtures';
import { leavePageFor } from '@/shared/services/utils/leave-page';
import { deferred, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { ADMIN_USER, REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { DashboardPage } from './dashboard-page';

// Conectar leaves the SPA (window.location.assign), which jsdom cannot do: record the call instead.
vi.mock('@/shared/services/utils/leave-page', () => ({ leavePageFor: vi.fn() }));

const LONG = 'Tus repositorios, contribuciones y proyectos de código en GitHub.';

const GITHUB = serviceFixture({ service_name: 'github', service_type: 'código', description: LONG });
const SPOTIFY = serviceFixture({ service_name: 'spotify', service_type: 'música', description: 'Tu música.', connected: true, account_name: 'ana' });
const GITHUB_LOGIN = serviceFixture({ service_name: 'githublogin', service_type: 'login', description: 'Inicia sesión en Life con tu cuenta de GitHub.' });
const FITBIT = serviceFixture({ service_name: 'fitbit', service_type: 'salud', description: 'Tu sueño.', needs_reconnect: true });
const GOOGLE_CALENDAR = serviceFixture({ service_name: 'googlecalendar', service_type: 'calendario', description: null });
const ALL = [FITBIT, GITHUB, GITHUB_LOGIN, GOOGLE_CALENDAR, SPOTIFY];

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderDashboard(handler: Handler = () => jsonResponse(404, { error: 'not_found', message: 'No' })) {
  const api = stubFetch((request) => {
    if (request.method === 'GET' && request.url === '/api/external-services/all') return jsonResponse(200, ALL);
    return handler(request);
  });
  renderWithProviders(<DashboardPage />);
  return api;
}

function tile(name: string) {
  return screen.getAllByTestId('service-tile').find((element) => element.dataset.service === name)!;
}

beforeEach(() => signIn(REGULAR_USER));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.mocked(leavePageFor).mockReset();
});

describe('DashboardPage', () => {
  it('shows the title, the privacy banner, the heading and a spinner while the list loads', async () => {
    const list = deferred<Response>();
    stubFetch(() => list.promise);
    renderWithProviders(<DashboardPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    const banner = screen.getByTestId('privacy-banner');
    // Says what is stored and why, and where to download or delete it (docs/data-rights.md).
    expect(banner).toHaveTextContent(
      'Tus datos, tus interacciones y los servicios que conectas te pertenecen solo a ti. No compartimos nada con nadie y no almacenamos más que lo imprescindible para que Life funcione',
    );
    expect(banner).toHaveTextContent('Eres tú quien decide qué se conserva y qué se elimina.');
    expect(within(banner).getByRole('link', { name: 'Descarga tus datos o elimina tu cuenta' })).toHaveAttribute('href', '/profile#tus-datos');
    expect(within(banner).getByRole('link', { name: 'Qué guardamos y por qué' })).toHaveAttribute('href', '/privacy-policy#que-guardamos');
    expect(screen.getByRole('heading', { level: 2, name: 'Servicios disponibles' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Buscar servicio')).toBeInTheDocument();
    expect(within(screen.getByTestId('services-loading')).getByRole('status')).toHaveTextContent('Cargando servicios…');

    list.resolve(jsonResponse(200, ALL));
    expect(await screen.findAllByTestId('service-tile')).toHaveLength(5);
    expect(screen.queryByTestId('services-loading')).not.toBeInTheDocument();
  });

  it('on a failed list stops the spinner, keeps the list empty and calmly offers to try again; Reintentar loads it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    let fail = true;
    const { requests } = stubFetch(() =>
      fail ? jsonResponse(503, { error: 'service_unavailable', message: 'Servicio no disponible' }) : jsonResponse(200, ALL),
    );
    renderWithProviders(<DashboardPage />);

    const message = await screen.findByTestId('services-load-error');
    expect(message).toHaveTextContent('No hemos podido cargar los servicios. Puede ser un corte momentáneo: vuelve a intentarlo.');
    // Calm: a polite status, not an alert.
    expect(message).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByTestId('services-loading')).not.toBeInTheDocument();
    expect(screen.queryAllByTestId('service-tile')).toHaveLength(0);
    expect(screen.queryByTestId('services-no-match')).not.toBeInTheDocument();
    // Spec section 8's words are still logged, as one debug line; a handled answer is not a console error.
    expect(debug).toHaveBeenCalledWith('Error cargando servicios (503 service_unavailable)');
    expect(error).not.toHaveBeenCalled();

    fail = false;
    await userEvent.click(within(message).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findAllByTestId('service-tile')).toHaveLength(5);
    expect(screen.queryByTestId('services-load-error')).not.toBeInTheDocument();
    expect(requests.filter((request) => request.url === '/api/external-services/all')).toHaveLength(2);
  });

  it('filters by service name, ignoring case', async () => {
    const user = userEvent.setup();
    renderDashboard();
    await screen.findAllByTestId('service-tile');
    const search = screen.getByPlaceholderText('Buscar servicio');

    await user.type(search, 'GITHUB');
    expect(screen.getAllByTestId('service-tile').map((element) => element.dataset.service)).toEqual(['github', 'githublogin']);

    await user.clear(search);
    await user.type(search, 'cal');
    expect(screen.getAllByTestId('service-tile').map((element) => element.dataset.service)).toEqual(['googlecalendar']);

    await user.clear(search);
    await user.type(search, 'narnia');
    expect(screen.queryAllByTestId('service-tile')).toHaveLength(0);
    expect(screen.getByTestId('services-no-match')).toHaveTextContent('Ningún servicio coincide con tu búsqueda.');
  });

  it('names each service as people know it, and the search finds it by that name or by its key', async () => {
    const user = userEvent.setup();
    renderDashboard();
    await screen.findAllByTestId('service-tile');
    expect(within(tile('googlecalendar')).getByRole('heading')).toHaveTextContent(/^Google Calendar$/);
    expect(tile('googlecalendar')).toHaveAccessibleName('Google Calendar');
    expect(within(tile('githublogin')).getByRole('heading')).toHaveTextContent(/^GitHub \(inicio de sesión\)$/);
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Fitbit',
      'GitHub',
      'GitHub (inicio de sesión)',
      'Google Calendar',
      'Spotify',
    ]);

    const search = screen.getByPlaceholderText('Buscar servicio');
    const found = () => screen.queryAllByTestId('service-tile').map((element) => element.dataset.service);
    for (const query of ['Google Calendar', 'googlecalendar', 'google cal', 'GOOGLE-CALENDAR']) {
      await user.clear(search);
      await user.type(search, query);
      expect([query, found()]).toEqual([query, ['googlecalendar']]);
    }
    await user.clear(search);
    await user.type(search, 'inicio de sesion');
    expect(found()).toEqual(['githublogin']);
  });

  it('names the services in the language on screen where the name is not a brand (English)', async () => {
    await i18n.changeLanguage('en');
    const user = userEvent.setup();
    renderDashboard();
    await screen.findAllByTestId('service-tile');
    expect(within(tile('githublogin')).getByRole('heading')).toHaveTextContent(/^GitHub \(sign-in\)$/);
    expect(within(tile('googlecalendar')).getByRole('button', { name: 'Edit Google Calendar' })).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox'), 'sign-in');
    expect(screen.getAllByTestId('service-tile').map((element) => element.dataset.service)).toEqual(['githublogin']);
  });

  it('the GitHub sign-in card says what is true: Conectado when the person signs in with GitHub, never Conectar or Desconectar', async () => {
    const signedIn = { ...GITHUB_LOGIN, connected: true };
    stubFetch(() => jsonResponse(200, [signedIn, GITHUB]));
    renderWithProviders(<DashboardPage />);
    await screen.findAllByTestId('service-tile');
    const login = tile('githublogin');
    expect(login).toHaveAttribute('data-connected', 'true');
    expect(within(login).getByTestId('service-status')).toHaveTextContent('Conectado');
    expect(within(login).getByTestId('service-tile-bar')).toHaveClass('bg-green-600');
    expect(within(login).getByTestId('service-login-hint')).toHaveTextContent('Inicias sesión en Life con esta cuenta.');
    expect(within(login).queryByRole('button', { name: 'Desconectar' })).not.toBeInTheDocument();
    expect(within(login).queryByRole('button', { name: 'Conectar' })).not.toBeInTheDocument();
    // The code-hosting GitHub service is another thing, connected from here.
    expect(within(tile('github')).getByRole('button', { name: 'Conectar' })).toBeInTheDocument();
  });

  it('the GitHub sign-in card, for someone who signs in another way, says Desconectado and what it is for', async () => {
    renderDashboard();
    await screen.findAllByTestId('service-tile');
    const login = tile('githublogin');
    expect(within(login).getByTestId('service-status')).toHaveTextContent('Desconectado');
    expect(within(login).getByTestId('service-login-hint')).toHaveTextContent('Sirve para iniciar sesión en Life; no se conecta desde aquí.');
    expect(within(login).queryByRole('button', { name: 'Conectar' })).not.toBeInTheDocument();
    expect(within(tile('github')).queryByTestId('service-login-hint')).not.toBeInTheDocument();
  });

  it('shows each card as the spec says: bar colour, state in words, type, 40-character description with the full text as tooltip', async () => {
    renderDashboard();
    await screen.findAllByTestId('service-tile');

    const github = tile('github');
    expect(github).toHaveAttribute('data-connected', 'false');
    expect(github).toHaveClass('min-[480px]:h-[340px]', 'min-[480px]:w-[210px]');
    expect(within(github).getByTestId('service-tile-bar')).toHaveClass('bg-red-600');
    expect(within(github).getByRole('heading', { name: 'GitHub' })).toBeInTheDocument();
    expect(within(github).getByTestId('service-status')).toHaveTextContent('Desconectado');
    expect(within(github).getByText('Tipo: código')).toBeInTheDocument();
    const description = within(github).getByTestId('service-description');
    expect(description).toHaveTextContent('Tus repositorios, contribuciones y proye…');
    expect(description).toHaveAttribute('title', LONG);
    expect(within(github).getByRole('button', { name: 'Editar GitHub' })).toBeInTheDocument();
    expect(within(github).getByRole('button', { name: 'Conectar' })).toHaveClass('bg-red-600');
    expect(within(github).queryByRole('button', { name: 'Desconectar' })).not.toBeInTheDocument();

    const spotify = tile('spotify');
    expect(spotify).toHaveAttribute('data-connected', 'true');
    expect(within(spotify).getByTestId('service-tile-bar')).toHaveClass('bg-green-600');
    expect(within(spotify).getByTestId('service-status')).toHaveTextContent('Conectado');
    expect(within(spotify).getByTestId('service-description')).toHaveTextContent('Tu música.');
    expect(within(spotify).queryByRole('button', { name: 'Conectar' })).not.toBeInTheDocument();
    expect(within(spotify).getByRole('button', { name: 'Desconectar' })).toBeInTheDocument();

    // Login-type services are never connected from here.
    const login = tile('githublogin');
    expect(within(login).getByText('Tipo: login')).toBeInTheDocument();
    expect(within(login).queryByRole('button', { name: 'Conectar' })).not.toBeInTheDocument();
    expect(within(login).queryByRole('button', { name: 'Desconectar' })).not.toBeInTheDocument();

    // A broken connection says so and offers Reconectar instead of Conectar.
    const fitbit = tile('fitbit');
    expect(within(fitbit).getByTestId('service-status')).toHaveTextContent('Hay que reconectar');
    expect(within(fitbit).getByTestId('service-status')).toHaveAttribute('data-state', 'needs_reconnect');
    expect(within(fitbit).getByRole('button', { name: 'Reconectar' })).toBeInTheDocument();
    expect(within(fitbit).queryByRole('button', { name: 'Conectar' })).not.toBeInTheDocument();

    // No description: nothing to cut and no tooltip.
    expect(within(tile('googlecalendar')).getByTestId('service-description')).not.toHaveAttribute('title');
  });

  it('Conectar asks the backend for the authorisation URL and sends the browser there', async () => {
    const user = userEvent.setup();
    const { requests } = renderDashboard(() => jsonResponse(200, { auth_url: 'https://github.example/authorize?state=s1' }));
    await screen.findAllByTestId('service-tile');
    await user.click(within(tile('github')).getByRole('button', { name: 'Conectar' }));

    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('https://github.example/authorize?state=s1'));
    const call = requests.find((request) => request.method === 'POST')!;
    expect(call.url).toBe('/api/external-services/github/auth');
    expect(call.body).toBeUndefined();
    expect(call.headers.Authorization).toBe('Bearer test-token');
  });

  it('says above the cards which connections broke, and a service with regions is (re)connected in the region picked on its card', async () => {
    const WOW = serviceFixture({
      service_name: 'wow',
      service_type: 'juegos',
      description: 'Tus personajes.',
      needs_reconnect: true,
      regions: ['us', 'eu', 'kr', 'tw', 'cn'],
      region: 'eu',
    });
    const user = userEvent.setup();
    const { requests } = stubFetch((request) => {
      if (request.method === 'GET' && request.url === '/api/external-services/all') return jsonResponse(200, [FITBIT, GITHUB, WOW]);
      return jsonResponse(200, { auth_url: 'https://battle.example/authorize' });
    });
    renderWithProviders(<DashboardPage />);
    const banner = await screen.findByTestId('services-broken');
    expect(banner).toHaveTextContent('Conexiones que dejaron de funcionar');
    expect(banner).toHaveTextContent('Fitbit, World of Warcraft: pulsa Reconectar en su tarjeta.');
    // Only services with regions have the picker; it starts at the connection's own region.
    expect(within(tile('github')).queryByTestId('service-region')).not.toBeInTheDocument();
    const region = within(tile('wow')).getByLabelText('Región');
    expect(region).toHaveValue('eu');
    expect(
      within(region)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['América', 'Europa', 'Corea', 'Taiwán', 'China']);
    await user.selectOptions(region, 'kr');
    await user.click(within(tile('wow')).getByRole('button', { name: 'Reconectar' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('https://battle.example/authorize'));
    const call = requests.find((request) => request.method === 'POST')!;
    expect(call.url).toBe('/api/external-services/wow/auth');
    expect(call.body).toEqual({ region: 'kr' });
  });

  it('shows no broken-connection notice when every connection works', async () => {
    stubFetch(() => jsonResponse(200, [GITHUB, SPOTIFY]));
    renderWithProviders(<DashboardPage />);
    await screen.findAllByTestId('service-tile');
    expect(screen.queryByTestId('services-broken')).not.toBeInTheDocument();
  });

  it('Reconectar runs the same flow', async () => {
    const user = userEvent.setup();
    const { requests } = renderDashboard(() => jsonResponse(200, { auth_url: 'https://fitbit.example/authorize' }));
    await screen.findAllByTestId('service-tile');
    await user.click(within(tile('fitbit')).getByRole('button', { name: 'Reconectar' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('https://fitbit.example/authorize'));
    expect(requests.find((request) => request.method === 'POST')!.url).toBe('/api/external-services/fitbit/auth');
  });

  it('alerts "No se recibió URL de autenticación" when the answer has no URL', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const user = userEvent.setup();
    renderDashboard(() => jsonResponse(200, {}));
    await screen.findAllByTestId('service-tile');
    await user.click(within(tile('github')).getByRole('button', { name: 'Conectar' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('No se recibió URL de autenticación'));
    expect(leavePageFor).not.toHaveBeenCalled();
    expect(within(tile('github')).getByRole('button', { name: 'Conectar' })).toBeEnabled();
  });

  it('alerts "Error al conectar con el servicio" (with the server message) when the call fails', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    let answer: () => Response = () => jsonResponse(409, { error: 'service_not_active', message: 'Este servicio no está activo ahora mismo.' });
    renderDashboard(() => answer());
    await screen.findAllByTestId('service-tile');

    await user.click(within(tile('github')).getByRole('button', { name: 'Conectar' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Error al conectar con el servicio\nEste servicio no está activo ahora mismo.'));

    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    await user.click(within(tile('github')).getByRole('button', { name: 'Conectar' }));
    await waitFor(() => expect(alert).toHaveBeenLastCalledWith('Error al conectar con el servicio'));
    expect(leavePageFor).not.toHaveBeenCalled();
  });

  it('Desconectar asks first, then deletes the connection and says where to finish when the provider cannot revoke', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const user = userEvent.setup();
    const { requests } = renderDashboard(() =>
      jsonResponse(200, { service: 'spotify', revoked_at_provider: false, finish_at: 'https://www.spotify.com/account/apps/' }),
    );
    await screen.findAllByTestId('service-tile');
    const deletes = () => requests.filter((request) => request.method === 'DELETE');

    await user.click(within(tile('spotify')).getByRole('button', { name: 'Desconectar' }));
    expect(confirm).toHaveBeenCalledWith('¿Desconectar Spotify? Borraremos tus tokens de este servicio.');
    expect(deletes()).toHaveLength(0);

    await user.click(within(tile('spotify')).getByRole('button', { name: 'Desconectar' }));
    await waitFor(() => expect(deletes()).toHaveLength(1));
    expect(deletes()[0]!.url).toBe('/api/external-services/spotify/connection');
    const finish = await screen.findByTestId('finish-at');
    expect(finish).toHaveTextContent('Para terminar, retira el acceso de Life en https://www.spotify.com/account/apps/');
    expect(within(finish).getByRole('link')).toHaveAttribute('href', 'https://www.spotify.com/account/apps/');
    // The list is read again to show the new state.
    await waitFor(() => expect(requests.filter((request) => request.url === '/api/external-services/all')).toHaveLength(2));

    await user.click(within(finish).getByRole('button', { name: 'Cerrar aviso' }));
    expect(screen.queryByTestId('finish-at')).not.toBeInTheDocument();
  });

  it('for a regular user the edit button opens the credentials dialog of that service', async () => {
    const user = userEvent.setup();
    renderDashboard();
    await screen.findAllByTestId('service-tile');
    await user.click(screen.getByRole('button', { name: 'Editar GitHub' }));
    const dialog = await screen.findByTestId('credentials-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Editar credenciales - GitHub' })).toBeInTheDocument();
    expect(screen.queryByTestId('service-dialog')).not.toBeInTheDocument();
  });

  it('for an admin the edit button opens the service edit dialog', async () => {
    signIn(ADMIN_USER);
    const user = userEvent.setup();
    renderDashboard();
    await screen.findAllByTestId('service-tile');
    await user.click(screen.getByRole('button', { name: 'Editar Spotify' }));
    const dialog = await screen.findByTestId('service-dialog');
    expect(within(dialog).getByTestId('service-field-service_name')).toHaveValue('spotify');
    expect(screen.queryByTestId('credentials-dialog')).not.toBeInTheDocument();
  });

  describe('a service that cannot be connected says so before any click', () => {
    const GOOGLE_FIT = serviceFixture({ service_name: 'googlefit', service_type: 'salud', status: 'maintenance', unavailable_reason: 'maintenance' });
    const UNSET = serviceFixture({ service_name: 'spotify', service_type: 'música', app_id: null, app_secret: '', unavailable_reason: 'not_configured' });
    const BROKEN = serviceFixture({ service_name: 'fitbit', service_type: 'salud', needs_reconnect: true, unavailable_reason: 'maintenance' });
    const DEV = serviceFixture({ service_name: 'notion', service_type: 'notas', app_id: null, app_secret: '', dev_provider: true });

    function renderList() {
      const api = stubFetch((request) =>
        request.method === 'GET' && request.url === '/api/external-services/all'
          ? jsonResponse(200, [BROKEN, GOOGLE_FIT, DEV, UNSET])
          : jsonResponse(200, { auth_url: 'https://stand-in.example/authorize' }),
      );
      renderWithProviders(<DashboardPage />);
      return api;
    }

    it('maintenance or nothing configured: the reason on the card and Conectar / Reconectar disabled, described by it; nothing is asked of the server', async () => {
      const user = userEvent.setup();
      const { requests } = renderList();
      await screen.findAllByTestId('service-tile');

      const fit = within(tile('googlefit'));
      expect(fit.getByTestId('service-unavailable')).toHaveTextContent('En mantenimiento: ahora no se puede conectar.');
      const fitButton = fit.getByRole('button', { name: 'Conectar' });
      expect(fitButton).toBeDisabled();
      expect(fitButton).toHaveAccessibleDescription('En mantenimiento: ahora no se puede conectar.');

      const spotify = within(tile('spotify'));
      expect(spotify.getByRole('button', { name: 'Conectar' })).toBeDisabled();
      expect(spotify.getByRole('button', { name: 'Conectar' })).toHaveAccessibleDescription('Sin configurar: añade credenciales con el lápiz.');
      // The pencil (own credentials) stays usable: it is the way out.
      expect(spotify.getByRole('button', { name: 'Editar Spotify' })).toBeEnabled();

      // A broken connection of a service in maintenance cannot be reconnected either; the reason replaces the reconnect hint.
      const fitbit = within(tile('fitbit'));
      expect(fitbit.getByRole('button', { name: 'Reconectar' })).toBeDisabled();
      expect(fitbit.getByTestId('service-unavailable')).toHaveAttribute('data-reason', 'maintenance');
      expect(fitbit.queryByText('La conexión dejó de funcionar: vuelve a conectarlo.')).not.toBeInTheDocument();

      await user.click(fitButton);
      await user.click(spotify.getByRole('button', { name: 'Conectar' }));
      expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);
      expect(leavePageFor).not.toHaveBeenCalled();
    });

    it('a development provider: Conectar works and the card says it goes to a local test provider', async () => {
      const user = userEvent.setup();
      const { requests } = renderList();
      await screen.findAllByTestId('service-tile');
      const notion = within(tile('notion'));
      expect(notion.queryByTestId('service-unavailable')).not.toBeInTheDocument();
      const button = notion.getByRole('button', { name: 'Conectar' });
      expect(button).toHaveAccessibleDescription('Modo desarrollo: proveedor de pruebas local.');
      await user.click(button);
      await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('https://stand-in.example/authorize'));
      expect(requests.find((request) => request.method === 'POST')!.url).toBe('/api/external-services/notion/auth');
    });

    it('says it in the reader’s language', async () => {
      await i18n.changeLanguage('en');
      try {
        renderList();
        await screen.findAllByTestId('service-tile');
        expect(within(tile('googlefit')).getByRole('button', { name: 'Connect' })).toHaveAccessibleDescription(
          'Under maintenance: it cannot be connected right now.',
        );
        expect(within(tile('notion')).getByTestId('service-dev-provider')).toHaveTextContent('Development mode: local test provider.');
      } finally {
        await i18n.changeLanguage('es');
      }
    });
  });
});
