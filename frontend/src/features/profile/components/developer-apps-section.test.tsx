import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeveloperApp } from '@life/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { emptyResponse, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { DeveloperAppsSection } from './developer-apps-section';

function app(overrides: Partial<DeveloperApp> = {}): DeveloperApp {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Mi Agenda',
    client_id: 'life_agenda_0001',
    client_type: 'confidential',
    redirect_uris: ['https://agenda.example/callback'],
    allowed_scopes: ['openid', 'profile', 'email'],
    description: null,
    logo_uri: null,
    policy_uri: null,
    tos_uri: null,
    verified: false,
    suspended: false,
    has_secret: true,
    created_at: '2025-03-15T10:00:00.000Z',
    ...overrides,
  };
}

const AGENDA = app();
const VERIFIED = app({
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Notas',
  client_id: 'life_notas',
  verified: true,
  client_type: 'public',
  has_secret: false,
});
const SUSPENDED = app({ id: '33333333-3333-4333-8333-333333333333', name: 'Sospechosa', client_id: 'life_sospechosa', suspended: true });

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderSection({
  items = [AGENDA, VERIFIED, SUSPENDED],
  limit = 5,
  write = (request: RecordedRequest) => jsonResponse(200, request.body),
}: { items?: DeveloperApp[]; limit?: number; write?: Handler } = {}) {
  signIn(REGULAR_USER);
  const api = stubFetch((request) => (request.method === 'GET' ? jsonResponse(200, { items, limit }) : write(request)));
  renderWithProviders(<DeveloperAppsSection />);
  return { ...api, writes: () => api.requests.filter((request) => request.method !== 'GET') };
}

const item = (name: string) => screen.getAllByTestId('developer-app').find((element) => within(element).queryByText(name))!;

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('es');
});

describe('DeveloperAppsSection ("Mis aplicaciones", decision 0037)', () => {
  it('lists my apps with Life’s review: Sin verificar, Verificada por Life, Suspendida (which the owner cannot lift)', async () => {
    renderSection();
    expect(await screen.findByRole('heading', { name: 'Mis aplicaciones' })).toBeInTheDocument();
    await screen.findAllByTestId('developer-app');
    expect(screen.getAllByTestId('developer-app-name').map((name) => name.textContent)).toEqual(['Mi Agenda', 'Notas', 'Sospechosa']);
    expect(within(item('Mi Agenda')).getByTestId('developer-app-unverified')).toHaveTextContent('Sin verificar');
    expect(within(item('Notas')).getByTestId('developer-app-verified')).toHaveTextContent('Verificada por Life');
    expect(within(item('Sospechosa')).getByTestId('developer-app-suspended')).toHaveTextContent('Suspendida');
    expect(within(item('Sospechosa')).getByTestId('developer-app-suspended-note')).toHaveTextContent('Life ha suspendido esta aplicación');
    expect(within(item('Sospechosa')).queryByRole('button', { name: /reactivar/i })).not.toBeInTheDocument();
    // Public apps have no secret to regenerate.
    expect(within(item('Notas')).queryByTestId('developer-app-rotate')).not.toBeInTheDocument();
    expect(screen.getByText(/Puedes tener hasta 5\./)).toBeInTheDocument();
  });

  it('creates an app: the server’s messages appear beside the fields, then the secret is shown once with a copy button', async () => {
    const user = userEvent.setup();
    let attempt = 0;
    const api = renderSection({
      items: [],
      write: () => {
        attempt += 1;
        if (attempt === 1) {
          return jsonResponse(400, {
            error: 'validation_failed',
            message: 'Revisa los datos.',
            details: [
              { path: 'body.redirect_uris.0', message: 'Debe ser https, o http solo en 127.0.0.1, [::1] o localhost.' },
              { path: 'body.logo_uri', message: 'Debe ser una URL https.' },
            ],
          });
        }
        return jsonResponse(201, { ...app({ name: 'Recetas' }), client_secret: 'lcs_only-once-9f8e7d' });
      },
    });
    expect(await screen.findByTestId('developer-apps-empty')).toHaveTextContent('Todavía no has registrado ninguna aplicación.');
    await user.click(screen.getByTestId('developer-app-add'));
    const dialog = await screen.findByTestId('developer-app-dialog');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Recetas ñ 日本');
    await user.type(within(dialog).getByLabelText('URIs de redirección'), 'http://recetas.example/cb');
    await user.type(within(dialog).getByLabelText('URL del logo (opcional)'), 'http://recetas.example/logo.png');
    await user.click(within(dialog).getByTestId('developer-app-save'));

    const logo = within(dialog).getByLabelText('URL del logo (opcional)');
    await waitFor(() => expect(logo).toHaveAttribute('aria-invalid', 'true'));
    const errors = within(dialog)
      .getAllByTestId('developer-app-field-error')
      .map((element) => element.textContent);
    expect(errors).toEqual(['Debe ser https, o http solo en 127.0.0.1, [::1] o localhost.', 'Debe ser una URL https.']);
    expect(logo.getAttribute('aria-describedby')).toContain(within(dialog).getByText('Debe ser una URL https.').id);
    expect(within(dialog).getByTestId('developer-app-save-error')).toHaveTextContent('Revisa los campos marcados.');
    expect(api.writes()[0]).toMatchObject({
      method: 'POST',
      url: '/api/users/me/developer-apps',
      body: {
        name: 'Recetas ñ 日本',
        client_type: 'confidential',
        redirect_uris: ['http://recetas.example/cb'],
        allowed_scopes: ['openid', 'profile', 'email'],
        logo_uri: 'http://recetas.example/logo.png',
        policy_uri: null,
      },
    });

    await user.click(within(dialog).getByTestId('developer-app-save'));
    expect(await within(dialog).findByTestId('developer-app-credentials-secret')).toHaveValue('lcs_only-once-9f8e7d');
    expect(within(dialog).getByRole('button', { name: 'Copiar Client Secret' })).toBeInTheDocument();
    expect(within(dialog).getByText('Guarda el secreto ahora: no se volverá a mostrar.')).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('developer-app-created-done'));
    await waitFor(() => expect(screen.queryByTestId('developer-app-dialog')).not.toBeInTheDocument());
    expect(document.body.textContent).not.toContain('lcs_only-once-9f8e7d');
  });

  it('at the limit, Nueva aplicación is off and says why', async () => {
    renderSection({ items: [AGENDA], limit: 1 });
    expect(await screen.findByTestId('developer-apps-limit')).toHaveTextContent('Has llegado al máximo de 1 aplicaciones.');
    expect(screen.getByTestId('developer-app-add')).toBeDisabled();
  });

  it('rotating the secret and deleting ask first; the new secret is shown once', async () => {
    const user = userEvent.setup();
    const api = renderSection({
      write: (request) => (request.method === 'DELETE' ? emptyResponse(204) : jsonResponse(200, { ...AGENDA, client_secret: 'lcs_rotated-1234' })),
    });
    await screen.findAllByTestId('developer-app');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    await user.click(within(item('Mi Agenda')).getByTestId('developer-app-rotate'));
    expect(confirm).toHaveBeenLastCalledWith('¿Regenerar el secreto de Mi Agenda? El actual dejará de funcionar al momento.');
    expect(api.writes()).toHaveLength(0);
    await user.click(within(item('Mi Agenda')).getByTestId('developer-app-rotate'));
    const shown = await screen.findByTestId('developer-app-new-secret');
    expect(within(shown).getByTestId('developer-app-credentials-secret')).toHaveValue('lcs_rotated-1234');
    expect(api.writes()[0]).toMatchObject({ method: 'POST', url: `/api/users/me/developer-apps/${AGENDA.id}/secret` });
    await user.click(within(shown).getByTestId('developer-app-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('developer-app-new-secret')).not.toBeInTheDocument());

    await user.click(within(item('Mi Agenda')).getByRole('button', { name: 'Eliminar Mi Agenda' }));
    expect(confirm).toHaveBeenLastCalledWith('¿Eliminar Mi Agenda? Dejará de funcionar al momento y se retirará el acceso que le dieron.');
    await waitFor(() => expect(api.writes()[1]).toMatchObject({ method: 'DELETE', url: `/api/users/me/developer-apps/${AGENDA.id}` }));
  });

  it('edits an app with its values, sending only what the form holds', async () => {
    const user = userEvent.setup();
    const api = renderSection({
      items: [app({ policy_uri: 'https://agenda.example/p' })],
      write: (request) => jsonResponse(200, { ...AGENDA, ...(request.body as object) }),
    });
    await screen.findAllByTestId('developer-app');
    await user.click(screen.getByRole('button', { name: 'Editar Mi Agenda' }));
    const dialog = await screen.findByTestId('developer-app-dialog');
    expect(within(dialog).getByLabelText('Política de privacidad (opcional)')).toHaveValue('https://agenda.example/p');
    expect(within(dialog).queryByLabelText('Tipo')).not.toBeInTheDocument();
    const name = within(dialog).getByLabelText('Nombre');
    await user.clear(name);
    await user.type(name, 'Agenda 2');
    await user.click(within(dialog).getByTestId('developer-app-save'));
    await waitFor(() => expect(screen.queryByTestId('developer-app-dialog')).not.toBeInTheDocument());
    expect(api.writes()[0]).toMatchObject({
      method: 'PUT',
      url: `/api/users/me/developer-apps/${AGENDA.id}`,
      body: { name: 'Agenda 2', redirect_uris: ['https://agenda.example/callback'], policy_uri: 'https://agenda.example/p', tos_uri: null },
    });
  });

  it('speaks English too', async () => {
    await i18n.changeLanguage('en');
    renderSection();
    expect(await screen.findByRole('heading', { name: 'My apps' })).toBeInTheDocument();
    await screen.findAllByTestId('developer-app');
    expect(within(item('Mi Agenda')).getByTestId('developer-app-unverified')).toHaveTextContent('Unverified');
  });
});
