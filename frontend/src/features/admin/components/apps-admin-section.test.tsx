import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OAuthClientView } from '@life/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyResponse, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { ADMIN_USER, renderWithProviders, signIn } from '@/test/render';
import { clientFixture } from '../test/fixtures';
import { AppsAdminSection } from './apps-admin-section';

const LONG_DESCRIPTION = 'Agenda compartida para familias numerosas con recordatorios.';
const AGENDA = clientFixture({
  name: 'Mi Agenda',
  client_id: 'life_0123456789abcdefghijklmnopqrstuvwxyz',
  description: LONG_DESCRIPTION,
  redirect_uris: ['https://agenda.example/callback', 'http://127.0.0.1:8080/cb'],
  redirect_uri: 'https://agenda.example/callback',
  allowed_scopes: ['openid', 'profile', 'email', 'service:spotify'],
});
const NOTAS = clientFixture({
  name: 'Notas Rápidas',
  client_id: 'notas_short',
  client_type: 'public',
  has_secret: false,
  description: null,
  active: false,
});

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderSection({
  list = () => jsonResponse(200, [AGENDA, NOTAS]),
  write = (request) => jsonResponse(200, request.body),
}: { list?: Handler; write?: Handler } = {}) {
  const api = stubFetch((request) => (request.method === 'GET' && request.url === '/oauth_clients' ? list(request) : write(request)));
  renderWithProviders(<AppsAdminSection />);
  return {
    ...api,
    calls: (method: string, url?: string) => api.requests.filter((request) => request.method === method && (url === undefined || request.url === url)),
  };
}

function row(name: string) {
  return screen.getAllByTestId('app-row').find((element) => within(element).queryByText(name))!;
}

async function openEditor(name: string) {
  const user = userEvent.setup();
  await screen.findAllByTestId('app-row');
  await user.click(within(row(name)).getByRole('button', { name: `Editar ${name}` }));
  return { user, dialog: await screen.findByTestId('app-dialog') };
}

function checkedScopes(dialog: HTMLElement): string[] {
  return within(dialog)
    .getAllByRole('checkbox')
    .filter((box) => box.getAttribute('name') === 'allowed_scopes' && (box as HTMLInputElement).checked)
    .map((box) => (box as HTMLInputElement).value);
}

beforeEach(() => signIn(ADMIN_USER));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AppsAdminSection', () => {
  it('lists Nombre, Estado (Activa/Inactiva), Client ID (24 characters) and Descripción (40 characters), full texts as tooltips', async () => {
    const { requests } = renderSection();
    await screen.findAllByTestId('app-row');
    expect(
      within(screen.getByTestId('apps-table'))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Nombre', 'Estado', 'Client ID', 'Descripción', 'Acciones']);

    const agenda = within(row('Mi Agenda')).getAllByRole('cell');
    // Each cell's first line (the name and Estado cells add the maker and Life's review below it).
    expect(agenda.slice(0, 4).map((cell) => cell.firstChild?.textContent)).toEqual([
      'Mi Agenda',
      'Activa',
      'life_0123456789abcdefghi…',
      'Agenda compartida para familias numerosa…',
    ]);
    expect(agenda[2]).toHaveAttribute('title', AGENDA.client_id);
    expect(agenda[3]).toHaveAttribute('title', LONG_DESCRIPTION);

    const notas = within(row('Notas Rápidas')).getAllByRole('cell');
    expect(notas.slice(1, 4).map((cell) => cell.firstChild?.textContent)).toEqual(['Inactiva', 'notas_short', 'Sin descripción']);
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/oauth_clients', headers: { Authorization: 'Bearer test-token' } });
  });

  it('names who made each app and shows Life’s review: Verificada, Sin verificar, Suspendida (decision 0037)', async () => {
    const person = clientFixture({ name: 'De Ana', developer_id: 'u-1', developer_name: 'ana', verified: false, suspended: true });
    renderSection({ list: () => jsonResponse(200, [AGENDA, person]) });
    await screen.findAllByTestId('app-row');
    expect(within(row('Mi Agenda')).getByTestId('app-owner')).toHaveTextContent('De Life');
    expect(within(row('Mi Agenda')).getByTestId('app-verified')).toHaveTextContent('Verificada');
    expect(within(row('De Ana')).getByTestId('app-owner')).toHaveTextContent('Creada por ana');
    expect(within(row('De Ana')).getByTestId('app-unverified')).toHaveTextContent('Sin verificar');
    expect(within(row('De Ana')).getByTestId('app-suspended')).toHaveTextContent('Suspendida');
    // A suspended app cannot be tried with Autorizar.
    expect(within(row('De Ana')).getByRole('button', { name: 'Autorizar' })).toBeDisabled();
  });

  it('verifies and suspends from the edit dialog (suspending asks first)', async () => {
    const person = clientFixture({ name: 'De Bea', developer_id: 'u-2', developer_name: 'bea', verified: false });
    const api = renderSection({
      list: () => jsonResponse(200, [person]),
      write: (request) => jsonResponse(200, { ...person, verified: request.url.endsWith('/verify'), suspended: request.url.endsWith('/suspend') }),
    });
    const { user, dialog } = await openEditor('De Bea');
    await user.click(within(dialog).getByTestId('app-verify'));
    expect(await within(dialog).findByTestId('app-unverify')).toBeInTheDocument();
    expect(api.calls('POST', `/oauth_clients/${person.id}/verify`)).toHaveLength(1);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(within(dialog).getByTestId('app-suspend'));
    expect(api.calls('POST', `/oauth_clients/${person.id}/suspend`)).toHaveLength(0);
    await user.click(within(dialog).getByTestId('app-suspend'));
    expect(confirm).toHaveBeenLastCalledWith('¿Suspender De Bea? Dejará de funcionar al momento para todas las personas que la usan.');
    expect(await within(dialog).findByTestId('app-unsuspend')).toBeInTheDocument();
    expect(api.calls('POST', `/oauth_clients/${person.id}/suspend`)).toHaveLength(1);
  });

  it('Autorizar is disabled for inactive apps only', async () => {
    renderSection();
    await screen.findAllByTestId('app-row');
    expect(within(row('Mi Agenda')).getByRole('button', { name: 'Autorizar' })).toBeEnabled();
    expect(within(row('Notas Rápidas')).getByRole('button', { name: 'Autorizar' })).toBeDisabled();
  });

  it('shows an empty state when no app is registered', async () => {
    renderSection({ list: () => jsonResponse(200, []) });
    expect(await screen.findByTestId('apps-empty')).toHaveTextContent('Todavía no hay aplicaciones registradas.');
    expect(screen.queryByTestId('app-row')).not.toBeInTheDocument();
  });

  it('the edit dialog starts from the app: name, description, one redirect URI per line, its scopes checked, Activa', async () => {
    renderSection();
    const { dialog } = await openEditor('Mi Agenda');
    expect(within(dialog).getByRole('heading', { name: 'Editar aplicación' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Nombre')).toHaveValue('Mi Agenda');
    expect(within(dialog).getByLabelText('Descripción')).toHaveValue(LONG_DESCRIPTION);
    expect(within(dialog).getByLabelText('URIs de redirección')).toHaveValue('https://agenda.example/callback\nhttp://127.0.0.1:8080/cb');
    expect(within(dialog).getByLabelText('Activa')).toBeChecked();
    expect(checkedScopes(dialog)).toEqual(['openid', 'profile', 'email', 'service:spotify']);
    // Every base scope and one service:<name> per catalog service.
    const offered = within(dialog)
      .getAllByRole('checkbox')
      .filter((box) => box.getAttribute('name') === 'allowed_scopes')
      .map((box) => (box as HTMLInputElement).value);
    expect(offered).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'read', 'services:read', 'service:github', 'service:destiny2', 'service:microsoft']),
    );
    // The twelve services of the spec's callback list and Microsoft Cloud (decision 0024).
    expect(offered).toHaveLength(5 + 13);
  });

  it('Guardar PUTs the full app object with the edited fields, then closes', async () => {
    const { calls } = renderSection();
    const { user, dialog } = await openEditor('Mi Agenda');
    await user.clear(within(dialog).getByLabelText('Nombre'));
    await user.type(within(dialog).getByLabelText('Nombre'), 'Agenda Familiar');
    await user.clear(within(dialog).getByLabelText('Descripción'));
    const uris = within(dialog).getByLabelText('URIs de redirección');
    await user.clear(uris);
    await user.type(uris, '  https://familia.example/cb  {Enter}{Enter}https://agenda.example/callback');
    await user.type(within(dialog).getByLabelText('URIs tras cerrar sesión'), 'https://familia.example/adios');
    await user.click(within(dialog).getByTestId('app-scope-email'));
    await user.click(within(dialog).getByTestId('app-scope-services:read'));
    await user.click(within(dialog).getByLabelText('Activa'));
    const requirePar = within(dialog).getByTestId('app-field-require_par');
    expect(requirePar).not.toBeChecked();
    expect(requirePar).toHaveAccessibleDescription(
      'La aplicación debe enviar cada solicitud de autorización a /oauth/par antes de mandar a la persona aquí (RFC 9126).',
    );
    await user.click(requirePar);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByTestId('app-dialog')).not.toBeInTheDocument());
    const puts = calls('PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.url).toBe(`/oauth_clients/${AGENDA.id}`);
    expect(puts[0]!.body).toEqual({
      ...AGENDA,
      name: 'Agenda Familiar',
      description: null,
      redirect_uri: 'https://familia.example/cb',
      redirect_uris: ['https://familia.example/cb', 'https://agenda.example/callback'],
      post_logout_redirect_uris: ['https://familia.example/adios'],
      allowed_scopes: ['openid', 'profile', 'service:spotify', 'services:read'],
      active: false,
      require_pushed_authorization_requests: true,
    });
  });

  it('a failed save shows "No se pudo guardar. {message}" (default "Error desconocido") and keeps the dialog open', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    let answer: () => Response = () =>
      jsonResponse(400, {
        error: 'validation_failed',
        message: 'Datos no válidos',
        details: [{ path: 'redirect_uris.0', message: 'Debe ser https, o http solo en 127.0.0.1, [::1] o localhost.' }],
      });
    renderSection({ write: () => answer() });
    const { user, dialog } = await openEditor('Mi Agenda');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByTestId('app-save-error')).toHaveTextContent(
      'No se pudo guardar. Debe ser https, o http solo en 127.0.0.1, [::1] o localhost.',
    );
    // A handled answer: one debug line, nothing in the error console (decision 0022).
    expect(log).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith('Error guardando datos (400 validation_failed)');

    answer = () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(within(dialog).getByTestId('app-save-error')).toHaveTextContent('No se pudo guardar. Error desconocido'));
    expect(screen.getByTestId('app-dialog')).toBeInTheDocument();
  });

  it('Nueva aplicación creates with the default scopes, then shows the client_id and the secret once', async () => {
    const created = { ...clientFixture({ name: 'Recetas', client_id: 'life_recetas_0001' }), client_secret: 'sk_live_only-once-9f8e7d' };
    const { calls } = renderSection({ write: () => jsonResponse(201, created) });
    const user = userEvent.setup();
    await screen.findAllByTestId('app-row');
    await user.click(screen.getByRole('button', { name: 'Nueva aplicación' }));
    const dialog = await screen.findByTestId('app-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Nueva aplicación' })).toBeInTheDocument();
    expect(checkedScopes(dialog)).toEqual(['openid', 'profile', 'email', 'read', 'services:read']);
    expect(within(dialog).getByLabelText('Tipo')).toHaveValue('confidential');

    await user.type(within(dialog).getByLabelText('Nombre'), 'Recetas');
    await user.type(within(dialog).getByLabelText('URIs de redirección'), 'https://recetas.example/cb');
    await user.type(within(dialog).getByLabelText('URIs tras cerrar sesión'), ' https://recetas.example/out {enter}{enter}http://127.0.0.1:8080/out');
    await user.type(within(dialog).getByLabelText('Descripción'), 'Tus recetas');
    await user.click(within(dialog).getByRole('button', { name: 'Crear aplicación' }));

    expect(await within(dialog).findByRole('heading', { name: 'Aplicación creada' })).toBeInTheDocument();
    expect(calls('POST', '/oauth_clients')).toHaveLength(1);
    expect(calls('POST', '/oauth_clients')[0]!.body).toEqual({
      name: 'Recetas',
      client_type: 'confidential',
      redirect_uris: ['https://recetas.example/cb'],
      post_logout_redirect_uris: ['https://recetas.example/out', 'http://127.0.0.1:8080/out'],
      allowed_scopes: ['openid', 'profile', 'email', 'read', 'services:read'],
      description: 'Tus recetas',
      active: true,
      require_pushed_authorization_requests: false,
    });
    expect(within(dialog).getByTestId('client-credentials-id')).toHaveValue('life_recetas_0001');
    expect(within(dialog).getByTestId('client-credentials-secret')).toHaveValue('sk_live_only-once-9f8e7d');
    expect(within(dialog).getByTestId('client-credentials-warning')).toHaveTextContent('Guarda el secreto ahora: no se volverá a mostrar.');

    await user.click(within(dialog).getByTestId('client-credentials-secret-copy'));
    expect(await navigator.clipboard.readText()).toBe('sk_live_only-once-9f8e7d');

    // Closed, the secret is gone: a new form starts blank.
    await user.click(within(dialog).getByRole('button', { name: 'Hecho' }));
    await waitFor(() => expect(screen.queryByTestId('app-dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Nueva aplicación' }));
    const again = await screen.findByTestId('app-dialog');
    expect(within(again).getByLabelText('Nombre')).toHaveValue('');
    expect(screen.queryByDisplayValue('sk_live_only-once-9f8e7d')).not.toBeInTheDocument();
  });

  it('a public app is created without a secret and told to use PKCE', async () => {
    const created = { ...clientFixture({ name: 'Móvil', client_type: 'public', has_secret: false }), client_secret: null };
    const { calls } = renderSection({ write: () => jsonResponse(201, created) });
    const user = userEvent.setup();
    await screen.findAllByTestId('app-row');
    await user.click(screen.getByRole('button', { name: 'Nueva aplicación' }));
    const dialog = await screen.findByTestId('app-dialog');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Móvil');
    await user.selectOptions(within(dialog).getByLabelText('Tipo'), 'public');
    await user.click(within(dialog).getByRole('button', { name: 'Crear aplicación' }));

    expect(await within(dialog).findByTestId('client-credentials-public')).toHaveTextContent('no tiene secreto y debe usar PKCE');
    expect(within(dialog).queryByTestId('client-credentials-secret')).not.toBeInTheDocument();
    expect(calls('POST', '/oauth_clients')[0]!.body).toMatchObject({ client_type: 'public', redirect_uris: [] });
  });

  it("a failed create shows the server's message in the form", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSection({ write: () => jsonResponse(400, { error: 'validation_failed', message: 'x', details: [{ path: 'name', message: 'Indica un nombre.' }] }) });
    const user = userEvent.setup();
    await screen.findAllByTestId('app-row');
    await user.click(screen.getByRole('button', { name: 'Nueva aplicación' }));
    const dialog = await screen.findByTestId('app-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Crear aplicación' }));
    expect(await within(dialog).findByTestId('app-save-error')).toHaveTextContent('No se pudo guardar. Indica un nombre.');
    expect(within(dialog).queryByRole('heading', { name: 'Aplicación creada' })).not.toBeInTheDocument();
  });

  it('Regenerar secreto (confidential apps only) asks first, then shows the new secret once', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { calls } = renderSection({ write: () => jsonResponse(200, { ...AGENDA, client_secret: 'sk_new_secret_42' }) });
    const { user, dialog } = await openEditor('Mi Agenda');
    const regenerate = within(dialog).getByRole('button', { name: 'Regenerar secreto' });

    await user.click(regenerate);
    expect(confirm).toHaveBeenCalledWith('¿Regenerar el secreto? El actual dejará de funcionar.');
    expect(calls('POST')).toHaveLength(0);

    await user.click(regenerate);
    expect(await within(dialog).findByTestId('app-new-secret')).toHaveValue('sk_new_secret_42');
    expect(calls('POST')).toEqual([expect.objectContaining({ url: `/oauth_clients/${AGENDA.id}/secret` })]);
    // Regenerating is not saving: the dialog stays and nothing was PUT.
    expect(calls('PUT')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    const { dialog: publicDialog } = await openEditor('Notas Rápidas');
    expect(within(publicDialog).queryByRole('button', { name: 'Regenerar secreto' })).not.toBeInTheDocument();
  });

  it('asks "¿Eliminar esta aplicación?" and deletes only when confirmed', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    let apps: OAuthClientView[] = [AGENDA, NOTAS];
    const { calls } = renderSection({
      list: () => jsonResponse(200, apps),
      write: () => {
        apps = [NOTAS];
        return emptyResponse(204);
      },
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('app-row');
    await user.click(within(row('Mi Agenda')).getByRole('button', { name: 'Eliminar Mi Agenda' }));
    expect(confirm).toHaveBeenCalledWith('¿Eliminar esta aplicación?');
    expect(calls('DELETE')).toHaveLength(0);

    await user.click(within(row('Mi Agenda')).getByRole('button', { name: 'Eliminar Mi Agenda' }));
    await waitFor(() => expect(screen.getAllByTestId('app-row')).toHaveLength(1));
    expect(calls('DELETE')).toEqual([expect.objectContaining({ url: `/oauth_clients/${AGENDA.id}` })]);
  });

  it('Autorizar fetches the consent page as HTML (scope read, state appconnect, prompt=consent), then shows that URL in a dialog that says what Permitir does', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { requests } = renderSection({
      write: () => new Response('<!doctype html><title>Life</title>', { status: 200, headers: { 'Content-Type': 'text/html' } }),
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('app-row');
    await user.click(within(row('Mi Agenda')).getByRole('button', { name: 'Autorizar' }));

    const dialog = await screen.findByTestId('authorize-dialog');
    const url = `/oauth/authorize?client_id=${AGENDA.client_id}&redirect_uri=https%3A%2F%2Fagenda.example%2Fcallback&scope=read&state=appconnect&prompt=consent`;
    const page = requests.filter((request) => request.url.startsWith('/oauth/authorize'));
    expect(page).toHaveLength(1);
    expect(page[0]).toMatchObject({ method: 'GET', url, headers: { Accept: 'text/html' } });
    expect(within(dialog).getByRole('heading', { name: 'Autorizar Mi Agenda' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('authorize-frame')).toHaveAttribute('src', url);
    expect(dialog).toHaveTextContent('Nada se concede hasta que pulses Permitir, y el panel no se abandona.');
    expect(alert).not.toHaveBeenCalled();
  });

  it('Autorizar alerts "Error conectando al backend: {message}" when the backend cannot be reached or fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    let answer: () => Response | Promise<Response> = () => Promise.reject(new TypeError('Failed to fetch'));
    renderSection({ write: () => answer() });
    const user = userEvent.setup();
    await screen.findAllByTestId('app-row');

    await user.click(within(row('Mi Agenda')).getByRole('button', { name: 'Autorizar' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Error conectando al backend: Failed to fetch'));
    expect(screen.queryByTestId('authorize-dialog')).not.toBeInTheDocument();

    answer = () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' });
    await user.click(within(row('Mi Agenda')).getByRole('button', { name: 'Autorizar' }));
    await waitFor(() => expect(alert).toHaveBeenLastCalledWith('Error conectando al backend: 502 Bad Gateway'));
    expect(screen.queryByTestId('authorize-dialog')).not.toBeInTheDocument();
  });
});
