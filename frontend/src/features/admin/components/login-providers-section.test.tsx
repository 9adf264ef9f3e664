import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { emptyResponse, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { ADMIN_USER, renderWithProviders, signIn } from '@/test/render';
import { LoginProvidersSection } from './login-providers-section';

const LONG = 'Inicia sesión con tu cuenta de GitHub y entra en Life en un momento.';

const GITHUB = {
  id: '11111111-1111-4111-8111-111111111111',
  service_name: 'github',
  service_type: 'login',
  description: LONG,
  app_id: 'Iv1.abc',
  app_secret: '********',
  base_url: 'https://github.com',
  auth_url: 'https://github.com/login/oauth/authorize',
  token_url: 'https://github.com/login/oauth/access_token',
  redirect_url: null,
  scopes: 'read:user user:email',
  user_url: 'https://api.github.com/user',
  callback_url: 'http://127.0.0.1:3000/login/github/callback',
};
const APPLE = {
  ...GITHUB,
  id: '22222222-2222-4222-8222-222222222222',
  service_name: 'apple',
  description: null,
  app_id: null,
  app_secret: '',
  user_url: null,
  callback_url: 'http://127.0.0.1:3000/login/apple/callback',
};

const FIELDS = [
  'service_name',
  'service_type',
  'description',
  'app_id',
  'app_secret',
  'base_url',
  'auth_url',
  'token_url',
  'redirect_url',
  'scopes',
  'user_url',
];

beforeEach(() => signIn(ADMIN_USER));
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderSection(onWrite: (request: RecordedRequest) => Response | Promise<Response> = () => jsonResponse(200, GITHUB)) {
  const api = stubFetch((request) => (request.method === 'GET' ? jsonResponse(200, [GITHUB, APPLE]) : onWrite(request)));
  renderWithProviders(<LoginProvidersSection />);
  const lists = () => api.requests.filter((request) => request.method === 'GET');
  const writes = () => api.requests.filter((request) => request.method !== 'GET');
  return { ...api, lists, writes };
}

function row(name: string) {
  return screen.getAllByTestId('provider-row').find((element) => within(element).queryByText(name))!;
}

describe('LoginProvidersSection', () => {
  it("shows Life's own provider descriptions and the type in the language on screen; an admin's text as written", async () => {
    const google = {
      ...GITHUB,
      id: '33333333-3333-4333-8333-333333333333',
      service_name: 'google',
      description: 'Inicia sesión con tu cuenta de Google (OpenID Connect).',
    };
    stubFetch(() => jsonResponse(200, [GITHUB, google]));
    await i18n.changeLanguage('en');
    try {
      renderWithProviders(<LoginProvidersSection />);
      const rows = await screen.findAllByTestId('provider-row');
      expect(
        within(rows[1]!)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((cell) => cell.textContent),
      ).toEqual(['google', 'login', 'Sign in with your Google account (OpenID…']);
      expect(within(rows[1]!).getByTestId('provider-description')).toHaveAttribute('title', 'Sign in with your Google account (OpenID Connect).');
      expect(within(rows[0]!).getByTestId('provider-description')).toHaveAttribute('title', LONG);
    } finally {
      await i18n.changeLanguage('es');
    }
  });

  it('lists Nombre, Tipo and Descripción (cut to 40 characters, "Sin descripción" when empty)', async () => {
    renderSection();
    await screen.findByText('github');
    const table = screen.getByTestId('providers-table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Nombre', 'Tipo', 'Descripción', 'Acciones']);

    const github = within(row('github')).getAllByRole('cell');
    expect(github.slice(0, 3).map((cell) => cell.textContent)).toEqual(['github', 'login', 'Inicia sesión con tu cuenta de GitHub y…']);
    expect(github[2]).toHaveAttribute('title', LONG);

    const apple = within(row('apple')).getAllByRole('cell');
    expect(apple[2]).toHaveTextContent('Sin descripción');
    expect(apple[2]).not.toHaveAttribute('title');

    expect(within(row('github')).getByRole('button', { name: 'Editar login provider' })).toBeInTheDocument();
    expect(within(row('github')).getByRole('button', { name: 'Eliminar login provider' })).toBeInTheDocument();
  });

  it('asks "¿Eliminar este login provider?" first and deletes only when confirmed', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { writes, lists } = renderSection(() => emptyResponse());
    await screen.findByText('github');

    await userEvent.click(within(row('apple')).getByRole('button', { name: 'Eliminar login provider' }));
    expect(confirm).toHaveBeenCalledWith('¿Eliminar este login provider?');
    expect(writes()).toEqual([]);

    await userEvent.click(within(row('apple')).getByRole('button', { name: 'Eliminar login provider' }));
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(writes()).toMatchObject([{ method: 'DELETE', url: `/api/login-providers/${APPLE.id}` }]);
  });

  it('edit: the stored secret shows as the mask in a password field and goes back unchanged (PUT)', async () => {
    const { writes, lists } = renderSection();
    await screen.findByText('github');
    await userEvent.click(within(row('github')).getByRole('button', { name: 'Editar login provider' }));

    const form = await screen.findByTestId('provider-form');
    expect(within(form).getByRole('heading', { name: 'Editar Login Provider' })).toBeInTheDocument();
    for (const field of FIELDS) expect(within(form).getByLabelText(field)).toHaveAttribute('data-testid', `provider-field-${field}`);
    const secret = within(form).getByTestId('provider-field-app_secret');
    expect(secret).toHaveAttribute('type', 'password');
    expect(secret).toHaveValue('********');
    expect(secret).toHaveAccessibleDescription(/El secreto guardado no se muestra/);
    expect(within(form).getByTestId('provider-field-description')).toHaveValue(LONG);

    await userEvent.clear(within(form).getByTestId('provider-field-scopes'));
    await userEvent.type(within(form).getByTestId('provider-field-scopes'), 'read:user');
    await userEvent.click(within(form).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByTestId('provider-form')).not.toBeInTheDocument());
    await waitFor(() => expect(lists()).toHaveLength(2));
    const [put] = writes();
    expect(put).toMatchObject({ method: 'PUT', url: `/api/login-providers/${GITHUB.id}` });
    expect(put!.body).toEqual({
      service_name: 'github',
      service_type: 'login',
      description: LONG,
      app_id: 'Iv1.abc',
      app_secret: '********',
      base_url: 'https://github.com',
      auth_url: 'https://github.com/login/oauth/authorize',
      token_url: 'https://github.com/login/oauth/access_token',
      redirect_url: null,
      scopes: 'read:user',
      user_url: 'https://api.github.com/user',
    });
  });

  it('edit: a provider without a secret starts empty, and a new secret replaces the mask', async () => {
    const { writes } = renderSection();
    await screen.findByText('github');
    await userEvent.click(within(row('apple')).getByRole('button', { name: 'Editar login provider' }));
    const form = await screen.findByTestId('provider-form');
    expect(within(form).getByTestId('provider-field-app_secret')).toHaveValue('');
    expect(within(form).queryByText(/El secreto guardado no se muestra/)).not.toBeInTheDocument();
    await userEvent.click(within(form).getByTestId('provider-cancel'));
    await waitFor(() => expect(screen.queryByTestId('provider-form')).not.toBeInTheDocument());
    expect(writes()).toEqual([]);

    await userEvent.click(within(row('github')).getByRole('button', { name: 'Editar login provider' }));
    const secret = within(await screen.findByTestId('provider-form')).getByTestId('provider-field-app_secret');
    await userEvent.click(secret); // focusing selects the mask, so typing replaces it
    await userEvent.keyboard('nuevo-secreto');
    await userEvent.click(screen.getByTestId('provider-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]!.body).toMatchObject({ app_secret: 'nuevo-secreto' });
  });

  it('the floating button opens "Nuevo Login Provider" and Guardar POSTs every field', async () => {
    const { writes, lists } = renderSection(() => jsonResponse(201, GITHUB));
    await screen.findByText('github');
    await userEvent.click(screen.getByRole('button', { name: 'Nuevo Login Provider' }));
    const form = await screen.findByTestId('provider-form');
    expect(within(form).getByRole('heading', { name: 'Nuevo Login Provider' })).toBeInTheDocument();
    expect(within(form).getByTestId('provider-field-app_secret')).toHaveValue('');

    await userEvent.type(within(form).getByTestId('provider-field-service_name'), 'google');
    await userEvent.type(within(form).getByTestId('provider-field-app_id'), 'client-1');
    await userEvent.type(within(form).getByTestId('provider-field-app_secret'), 's3cret');
    await userEvent.click(within(form).getByTestId('provider-save'));

    await waitFor(() => expect(screen.queryByTestId('provider-form')).not.toBeInTheDocument());
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(writes()).toHaveLength(1);
    expect(writes()[0]).toMatchObject({ method: 'POST', url: '/api/login-providers' });
    expect(writes()[0]!.body).toEqual({
      service_name: 'google',
      service_type: 'login',
      description: null,
      app_id: 'client-1',
      app_secret: 's3cret',
      base_url: null,
      auth_url: null,
      token_url: null,
      redirect_url: null,
      scopes: null,
      user_url: null,
    });
  });

  it('a failed save is only logged: the form closes anyway and the list is refreshed', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { lists } = renderSection(() => jsonResponse(400, { error: 'validation_failed', message: 'The request is not valid.' }));
    await screen.findByText('github');
    await userEvent.click(within(row('github')).getByRole('button', { name: 'Editar login provider' }));
    await userEvent.click(await screen.findByTestId('provider-save'));
    await waitFor(() => expect(screen.queryByTestId('provider-form')).not.toBeInTheDocument());
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(consoleError).toHaveBeenCalledWith('Error al guardar el login provider', expect.anything());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('failed loads and deletes are only logged', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    let listCalls = 0;
    stubFetch((request) => {
      if (request.method === 'DELETE') return jsonResponse(404, { error: 'login_provider_not_found', message: 'No existe.' });
      listCalls += 1;
      return listCalls === 1 ? jsonResponse(200, [GITHUB]) : jsonResponse(403, { error: 'forbidden', message: 'No.' });
    });
    renderWithProviders(<LoginProvidersSection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Eliminar login provider' }));
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error al eliminar el login provider', expect.anything()));
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error al obtener los login providers', expect.anything()));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
