import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AppGrant } from '@life/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { emptyResponse, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { AppGrantsSection } from './app-grants-section';

const AGENDA: AppGrant = {
  id: '11111111-1111-4111-8111-111111111111',
  client_id: 'agenda-app',
  client_name: 'Mi Agenda',
  scopes: [
    { scope: 'openid', description: 'Saber quién eres' },
    { scope: 'services:read', description: 'Ver qué servicios tienes conectados' },
  ],
  granted_at: '2025-03-15T10:00:00.000Z',
  updated_at: '2025-04-01T10:00:00.000Z',
};
const NOTAS: AppGrant = {
  id: '22222222-2222-4222-8222-222222222222',
  client_id: 'notas-app',
  client_name: 'Notas Rápidas',
  scopes: [],
  granted_at: '2025-08-11T10:00:00.000Z',
  updated_at: '2025-08-11T10:00:00.000Z',
};

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderSection({ list = () => jsonResponse(200, [AGENDA, NOTAS]), revoke = () => emptyResponse(204) }: { list?: Handler; revoke?: Handler } = {}) {
  signIn(REGULAR_USER);
  const api = stubFetch((request) => (request.method === 'DELETE' ? revoke(request) : list(request)));
  renderWithProviders(<AppGrantsSection />);
  return {
    ...api,
    lists: () => api.requests.filter((request) => request.method === 'GET' && request.url === '/api/users/me/apps'),
    deletes: () => api.requests.filter((request) => request.method === 'DELETE'),
  };
}

function grantItem(name: string) {
  return screen.getAllByTestId('app-grant').find((element) => within(element).queryByText(name))!;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AppGrantsSection', () => {
  it("lists each app with access: its name, its scopes' descriptions and the date in the current language", async () => {
    const { lists } = renderSection();
    expect(await screen.findByRole('heading', { name: 'Aplicaciones con acceso' })).toBeInTheDocument();
    await screen.findAllByTestId('app-grant');
    expect(screen.getAllByTestId('app-grant-name').map((name) => name.textContent)).toEqual(['Mi Agenda', 'Notas Rápidas']);

    const agenda = grantItem('Mi Agenda');
    expect(
      within(within(agenda).getByTestId('app-grant-scopes'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Saber quién eres', 'Ver qué servicios tienes conectados']);
    expect(within(agenda).getByTestId('app-grant-date')).toHaveTextContent('Acceso concedido el 15 de marzo de 2025');
    expect(within(grantItem('Notas Rápidas')).getByText('Sin permisos específicos')).toBeInTheDocument();
    expect(lists()[0]!.headers.Authorization).toBe('Bearer test-token');

    await i18n.changeLanguage('en');
    await waitFor(() => expect(within(grantItem('Mi Agenda')).getByTestId('app-grant-date')).toHaveTextContent('Access granted on March 15, 2025'));
  });

  it('Revocar asks first, then DELETEs the grant and refreshes the list', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    let grants = [AGENDA, NOTAS];
    const { deletes, lists } = renderSection({
      list: () => jsonResponse(200, grants),
      revoke: () => {
        grants = [NOTAS];
        return emptyResponse(204);
      },
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('app-grant');
    const revoke = within(grantItem('Mi Agenda')).getByRole('button', { name: 'Revocar el acceso de Mi Agenda' });
    expect(revoke).toHaveTextContent('Revocar');

    await user.click(revoke);
    expect(confirm).toHaveBeenCalledWith('¿Revocar el acceso de Mi Agenda? Tendrá que volver a pedirte permiso.');
    expect(deletes()).toHaveLength(0);

    await user.click(revoke);
    await waitFor(() => expect(screen.getAllByTestId('app-grant')).toHaveLength(1));
    expect(screen.queryByText('Mi Agenda')).not.toBeInTheDocument();
    expect(deletes()).toEqual([
      expect.objectContaining({ url: `/api/users/me/apps/${AGENDA.id}`, headers: expect.objectContaining({ Authorization: 'Bearer test-token' }) }),
    ]);
    expect(lists().length).toBeGreaterThanOrEqual(2);
  });

  it('says so when the revoke fails', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSection({ revoke: () => jsonResponse(404, { error: 'not_found', message: 'Ese acceso ya no existe.' }) });
    const user = userEvent.setup();
    await screen.findAllByTestId('app-grant');
    await user.click(within(grantItem('Mi Agenda')).getByRole('button', { name: 'Revocar el acceso de Mi Agenda' }));
    expect(await screen.findByTestId('app-grants-revoke-error')).toHaveTextContent('No se pudo revocar el acceso. Ese acceso ya no existe.');
  });

  it('shows "Ninguna aplicación tiene acceso a tu cuenta." when there is none', async () => {
    renderSection({ list: () => jsonResponse(200, []) });
    expect(await screen.findByTestId('app-grants-empty')).toHaveTextContent('Ninguna aplicación tiene acceso a tu cuenta.');
    expect(screen.queryByTestId('app-grant')).not.toBeInTheDocument();
  });

  it('shows an error with Reintentar when the list cannot be loaded', async () => {
    // A 4xx, so the query client does not retry (a 5xx would be retried twice first).
    let answer: () => Response = () => jsonResponse(404, { error: 'not_found', message: 'No encontrado' });
    renderSection({ list: () => answer() });
    expect(await screen.findByTestId('app-grants-error')).toHaveTextContent('No se pudieron cargar las aplicaciones con acceso.');

    answer = () => jsonResponse(200, [AGENDA]);
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('app-grant')).toHaveTextContent('Mi Agenda');
  });
});
