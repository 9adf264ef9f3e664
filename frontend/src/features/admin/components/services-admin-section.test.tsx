import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serviceDisplayName } from '@/lib/contract-constants';
import i18n from '@/i18n/i18n';
import es from '@/i18n/locales/es.json';
import { serviceFixture } from '@/shared/services/test/fixtures';
import { leavePageFor } from '@/shared/services/utils/leave-page';
import { jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { ADMIN_USER, renderWithProviders, signIn } from '@/test/render';
import { ServicesAdminSection } from './services-admin-section';

vi.mock('@/shared/services/utils/leave-page', () => ({ leavePageFor: vi.fn() }));

const LONG = 'Tu sueño, tu actividad y tu salud desde tu pulsera Fitbit.';
const FITBIT = serviceFixture({
  service_name: 'fitbit',
  service_type: 'salud',
  description: LONG,
  scopes: 'activity sleep',
  app_secret: '********',
  token_auth: 'basic',
  pkce: true,
  extra_auth_params: { prompt: 'consent' },
  revoke_style: 'rfc7009',
});
const SPOTIFY = serviceFixture({ service_name: 'spotify', service_type: 'música', description: 'Tu música.', connected: true });
const LOGIN = serviceFixture({ service_name: 'githublogin', service_type: 'login', description: null });

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderSection(onWrite: Handler = (request) => jsonResponse(200, request.body)) {
  const api = stubFetch((request) => (request.method === 'GET' ? jsonResponse(200, [FITBIT, LOGIN, SPOTIFY]) : onWrite(request)));
  renderWithProviders(<ServicesAdminSection />);
  return { ...api, puts: () => api.requests.filter((request) => request.method === 'PUT') };
}

function row(name: string) {
  return screen.getAllByTestId('service-row').find((element) => element.dataset.service === name)!;
}

async function openEditor(name: string) {
  const user = userEvent.setup();
  await screen.findAllByTestId('service-row');
  await user.click(within(row(name)).getByRole('button', { name: `Editar ${serviceDisplayName(name)}` }));
  return { user, dialog: await screen.findByTestId('service-dialog') };
}

beforeEach(() => signIn(ADMIN_USER));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.mocked(leavePageFor).mockReset();
});

describe('ServicesAdminSection', () => {
  it('lists Servicio, Tipo, Estado (Conectado/Desconectado) and Descripción (40 characters, full text as tooltip)', async () => {
    renderSection();
    await screen.findAllByTestId('service-row');
    const table = screen.getByTestId('services-table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Servicio', 'Tipo', 'Estado', 'Descripción', 'Acciones']);

    const fitbit = within(row('fitbit')).getAllByRole('cell');
    // Servicio: the name people see, with the key the editor changes under it.
    expect(fitbit.slice(0, 4).map((cell) => cell.textContent)).toEqual(['Fitbitfitbit', 'salud', 'Desconectado', 'Tu sueño, tu actividad y tu salud desde…']);
    expect(within(fitbit[0]!).getByTestId('service-row-key')).toHaveTextContent(/^fitbit$/);
    expect(fitbit[3]).toHaveAttribute('title', LONG);
    expect(within(row('spotify')).getAllByRole('cell')[2]).toHaveTextContent('Conectado');
  });

  it("shows Life's own types and descriptions in the language on screen, as the dashboard does; an admin's text as written", async () => {
    const shipped = serviceFixture({ service_name: 'notion', service_type: 'notas', description: es.services.catalogDescriptions.notion });
    stubFetch(() => jsonResponse(200, [FITBIT, shipped]));
    await i18n.changeLanguage('en');
    try {
      renderWithProviders(<ServicesAdminSection />);
      await screen.findAllByTestId('service-row');
      const notion = within(row('notion')).getAllByRole('cell');
      expect(notion.slice(0, 2).map((cell) => cell.textContent)).toEqual(['Notionnotion', 'notes']);
      expect(notion[3]).toHaveAttribute('title', 'The Notion pages and databases you choose to share.');
      const fitbit = within(row('fitbit')).getAllByRole('cell');
      expect(fitbit[1]).toHaveTextContent('health');
      expect(fitbit[3]).toHaveAttribute('title', LONG);
    } finally {
      await i18n.changeLanguage('es');
    }
  });

  it('offers Conectar with the dashboard rule (not connected, not login) and runs the same flow', async () => {
    const { requests } = renderSection((request) => jsonResponse(200, { auth_url: `https://provider.example${request.url}` }));
    await screen.findAllByTestId('service-row');
    expect(within(row('spotify')).queryByRole('button', { name: 'Conectar' })).not.toBeInTheDocument();
    expect(within(row('githublogin')).queryByRole('button', { name: 'Conectar' })).not.toBeInTheDocument();

    await userEvent.setup().click(within(row('fitbit')).getByRole('button', { name: 'Conectar' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('https://provider.example/api/external-services/fitbit/auth'));
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('the edit dialog shows every field, the status in Spanish and the secret masked', async () => {
    renderSection();
    const { dialog } = await openEditor('fitbit');
    expect(within(dialog).getByRole('heading', { name: 'Editar servicio - fitbit' })).toBeInTheDocument();
    for (const field of [
      'service_name',
      'service_type',
      'description',
      'status',
      'scopes',
      'app_id',
      'app_secret',
      'base_url',
      'auth_url',
      'token_url',
      'redirect_url',
      'user_url',
      'token_auth',
      'token_body',
      'send_scope',
      'pkce',
      'extra_auth_params',
      'extra_headers',
      'api_key_header',
      'api_key',
      'revoke_url',
      'revoke_style',
      'account_url',
    ]) {
      expect(within(dialog).getByTestId(`service-field-${field}`)).toBeInTheDocument();
    }
    const status = within(dialog).getByTestId('service-field-status');
    expect(
      within(status)
        .getAllByRole('option')
        .map((option) => [option.getAttribute('value'), option.textContent]),
    ).toEqual([
      ['announced', 'Anunciado'],
      ['inactive', 'Inactivo'],
      ['active', 'Activo'],
      ['maintenance', 'Mantenimiento'],
    ]);
    expect(status).toHaveValue('active');
    expect(within(dialog).getByTestId('service-field-app_secret')).toHaveAttribute('type', 'password');
    expect(within(dialog).getByTestId('service-field-app_secret')).toHaveValue('********');
    expect(within(dialog).getByText('Avanzado')).toBeInTheDocument();
    expect(within(dialog).getByTestId('service-field-pkce')).toBeChecked();
    expect(JSON.parse((within(dialog).getByTestId('service-field-extra_auth_params') as HTMLTextAreaElement).value)).toEqual({ prompt: 'consent' });
  });

  it('a login row (githublogin) shows no app fields: its app is the login provider’s (decision 0040), and it saves', async () => {
    const { puts } = renderSection();
    const user = userEvent.setup();
    await screen.findAllByTestId('service-row');
    await user.click(within(row('githublogin')).getByRole('button', { name: 'Editar GitHub (inicio de sesión)' }));
    const dialog = await screen.findByTestId('service-dialog');
    expect(within(dialog).getByTestId('service-login-row')).toHaveTextContent(es.services.form.loginRow);
    for (const field of ['scopes', 'app_id', 'app_secret', 'auth_url', 'token_url']) {
      expect(within(dialog).queryByLabelText(es.services.form.fields[field as keyof typeof es.services.form.fields])).toBeNull();
    }
    expect(within(dialog).getByTestId('service-advanced')).not.toBeVisible();
    // The description still edits; the row goes out without an app.
    await user.type(within(dialog).getByLabelText(es.services.form.fields.description), 'Entra con GitHub.');
    await user.click(within(dialog).getByTestId('service-save'));
    await user.click(await screen.findByTestId('service-confirm-save'));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]!.body).toMatchObject({
      service_name: 'githublogin',
      description: 'Entra con GitHub.',
      app_id: null,
      scopes: null,
      auth_url: null,
      app_secret: '',
      api_key: '',
    });
  });

  it('Guardar PUTs the full service object with the edited fields, then closes', async () => {
    const { puts } = renderSection();
    const { user, dialog } = await openEditor('fitbit');
    await user.selectOptions(within(dialog).getByTestId('service-field-status'), 'maintenance');
    await user.clear(within(dialog).getByTestId('service-field-scopes'));
    await user.type(within(dialog).getByTestId('service-field-scopes'), 'activity heartrate');
    await user.clear(within(dialog).getByTestId('service-field-base_url'));
    await user.click(within(dialog).getByTestId('service-save'));
    expect(puts()).toHaveLength(0);
    await user.click(within(dialog).getByTestId('service-confirm-save'));

    await waitFor(() => expect(screen.queryByTestId('service-dialog')).not.toBeInTheDocument());
    expect(puts()).toHaveLength(1);
    expect(puts()[0]!.url).toBe(`/api/external-services/${FITBIT.id}`);
    expect(puts()[0]!.body).toEqual({ ...FITBIT, status: 'maintenance', scopes: 'activity heartrate', base_url: null });
  });

  it('shows "No se pudo guardar. {message}" and logs "Error guardando datos" when the save fails', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    let answer: () => Response = () => jsonResponse(409, { error: 'service_exists', message: 'Ya existe un servicio llamado spotify.' });
    renderSection(() => answer());
    const { user, dialog } = await openEditor('fitbit');

    await user.type(within(dialog).getByTestId('service-field-service_name'), '-x');
    await user.click(within(dialog).getByTestId('service-save'));
    await user.click(within(dialog).getByTestId('service-confirm-save'));
    expect(await within(dialog).findByTestId('service-save-error')).toHaveTextContent('No se pudo guardar. Ya existe un servicio llamado spotify.');
    // A handled answer: one debug line, nothing in the error console (decision 0022).
    expect(log).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith('Error guardando datos (409 service_exists)');
    expect(screen.getByTestId('service-dialog')).toBeInTheDocument();

    answer = () => new Response('<h1>Bad gateway</h1>', { status: 502 });
    await user.click(within(dialog).getByTestId('service-confirm-save'));
    await waitFor(() => expect(within(dialog).getByTestId('service-save-error')).toHaveTextContent('No se pudo guardar. Error desconocido'));
  });

  it('an invalid JSON field gets a field error and nothing is sent', async () => {
    const { puts } = renderSection();
    const { user, dialog } = await openEditor('fitbit');
    const headers = within(dialog).getByTestId('service-field-extra_headers');
    await user.clear(headers);
    await user.type(headers, '{{"X-Api": 1');
    await user.click(within(dialog).getByTestId('service-save'));

    expect(headers).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText(/JSON no válido/)).toBeInTheDocument();
    expect(puts()).toHaveLength(0);
  });

  it('Conectar of a service that cannot be connected is disabled, with the reason on its tooltip and read with the button', async () => {
    const maintenance = serviceFixture({ service_name: 'googlefit', service_type: 'salud', status: 'maintenance', unavailable_reason: 'maintenance' });
    const { requests } = stubFetch(() => jsonResponse(200, [maintenance, SPOTIFY]));
    renderWithProviders(<ServicesAdminSection />);
    await screen.findAllByTestId('service-row');
    const button = within(row('googlefit')).getByRole('button', { name: 'Conectar' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('En mantenimiento: ahora no se puede conectar.');
    expect(within(row('googlefit')).getByTestId('service-unavailable')).toHaveAttribute('title', 'En mantenimiento: ahora no se puede conectar.');
    await userEvent.setup().click(button);
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });

  it('labels the fields in words, in the language on screen (no raw field names), with the key explained', async () => {
    renderSection();
    const { dialog } = await openEditor('fitbit');
    expect(within(dialog).getByLabelText('Clave del servicio')).toHaveValue('fitbit');
    expect(within(dialog).getByLabelText('Client ID de la aplicación OAuth')).toHaveValue(FITBIT.app_id);
    expect(within(dialog).getByLabelText('Clave del servicio')).toHaveAccessibleDescription(
      'Identificador único en minúsculas que usa toda la app, p. ej. en /callback/fitbit. No es el Client ID.',
    );
    expect(within(dialog).getByLabelText('URL de tokens')).toHaveValue(FITBIT.token_url);
    for (const raw of ['service_name', 'service_type', 'app_id', 'app_secret', 'token_url', 'extra_headers']) {
      expect(within(dialog).queryByText(raw)).not.toBeInTheDocument();
    }
    // The type is one of the known types, each in words.
    const type = within(dialog).getByLabelText('Tipo');
    expect(type).toHaveValue('salud');
    expect(
      within(type)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toContain('salud');
    expect(within(type).getAllByRole('option')).toHaveLength(11);
  });

  it('Guardar asks first, because the change reaches every person: it lists what changes, spells out a key change, and Volver a editar sends nothing', async () => {
    const { puts } = renderSection();
    const { user, dialog } = await openEditor('fitbit');
    const key = within(dialog).getByLabelText('Clave del servicio');
    await user.clear(key);
    await user.type(key, 'my-client-id');
    await user.selectOptions(within(dialog).getByLabelText('Tipo'), 'hogar');
    await user.click(within(dialog).getByTestId('service-save'));

    const confirm = await within(dialog).findByTestId('service-confirm');
    expect(within(confirm).getByTestId('service-confirm-warning')).toHaveTextContent('Este cambio afecta a todas las personas');
    expect(within(confirm).getByTestId('service-confirm-rename')).toHaveTextContent('Cambiar la clave de «fitbit» a «my-client-id»');
    const changes = within(confirm).getByTestId('service-confirm-changes');
    expect([...changes.querySelectorAll('[data-field]')].map((item) => item.getAttribute('data-field'))).toEqual(['service_name', 'service_type']);
    expect(changes).toHaveTextContent('Clave del serviciofitbit → my-client-id');
    expect(changes).toHaveTextContent('Tiposalud → hogar');
    expect(puts()).toHaveLength(0);

    await user.click(within(confirm).getByRole('button', { name: 'Volver a editar' }));
    expect(within(dialog).getByLabelText('Clave del servicio')).toHaveValue('my-client-id');
    expect(puts()).toHaveLength(0);

    await user.click(within(dialog).getByTestId('service-save'));
    await user.click(await within(dialog).findByRole('button', { name: 'Guardar para todos' }));
    await waitFor(() => expect(screen.queryByTestId('service-dialog')).not.toBeInTheDocument());
    expect(puts()[0]!.body).toMatchObject({ service_name: 'my-client-id', service_type: 'hogar' });
  });

  it('Guardar without changes closes without asking or sending; a new secret is listed but never shown', async () => {
    const { puts } = renderSection();
    const { user, dialog } = await openEditor('fitbit');
    await user.click(within(dialog).getByTestId('service-save'));
    await waitFor(() => expect(screen.queryByTestId('service-dialog')).not.toBeInTheDocument());
    expect(puts()).toHaveLength(0);

    const again = await openEditor('fitbit');
    await again.user.type(within(again.dialog).getByLabelText('Client Secret de la aplicación OAuth'), 'new-secret-value');
    await again.user.click(within(again.dialog).getByTestId('service-save'));
    const confirm = await within(again.dialog).findByTestId('service-confirm');
    expect(confirm).toHaveTextContent('Nuevo valor (no se muestra)');
    expect(confirm).not.toHaveTextContent('new-secret-value');
  });
});
